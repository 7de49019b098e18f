/**
 * `/` of a workspace with no site deployed: instead of a bare error, where to go next — the
 * delivery API, its OpenAPI document, the dashboard and its API reference, and how to deploy a
 * site. Still a 404 (there is no site), as JSON with those links, or a short HTML page for a
 * browser (one that accepts text/html), under a CSP that allows nothing to load or run.
 */
import type { H3Event } from "h3";
import type { ServiceContext } from "../../services/context.js";
import { dashboardUrl } from "../dashboard/serve.js";

export const NO_SITE_MESSAGE = "No site is deployed on this workspace";
export const WELCOME_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Links {
  api: string;
  openapi: string;
  dashboard?: string;
  docs?: string;
  deploy: string;
}

/** The 404 answered for `/` when nothing is deployed, in the form the client accepts. */
export function noSiteResponse(event: H3Event, service: ServiceContext): Response {
  const workspace = event.context.workspace!;
  const dashboard = service.options.dashboard && workspace.dashboardHost ? dashboardUrl(event, service, workspace.dashboardHost) : undefined;
  const links: Links = {
    api: "/api/v1/",
    openapi: "/api/openapi.json",
    ...(dashboard && { dashboard, docs: `${dashboard}api/` }),
    deploy: `svc site deploy <dir> -w ${workspace.slug}`,
  };
  const headers = { "cache-control": "no-cache", "x-content-type-options": "nosniff", vary: "accept" };
  if (!/\btext\/html\b/i.test(event.req.headers.get("accept") ?? "")) {
    return new Response(JSON.stringify({ error: NO_SITE_MESSAGE, ...links }), { status: 404, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  }
  return new Response(page(workspace.name || workspace.slug, links), {
    status: 404,
    headers: { ...headers, "content-type": "text/html; charset=utf-8", "content-security-policy": WELCOME_CSP },
  });
}

function page(name: string, links: Links): string {
  const item = (label: string, href: string, text = href) => `<li>${label}: <a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(name)}: no site yet</title></head><body>`,
    `<h1>${escapeHtml(name)}</h1>`,
    `<p>${NO_SITE_MESSAGE}. Deploy one with <code>${escapeHtml(links.deploy)}</code>.</p>`,
    "<ul>",
    item("Content API", links.api),
    item("OpenAPI document", links.openapi),
    ...(links.dashboard ? [item("Dashboard", links.dashboard), item("API reference", links.docs!)] : []),
    "</ul>",
    "</body></html>",
  ].join("\n");
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
