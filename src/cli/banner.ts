/**
 * What `svc serve` prints on the first run: the demo workspace's credentials and commands that work
 * as pasted on that fresh server (no collection exists yet, so the first one creates it). Plain
 * lines, no box: a box's borders would be copied with the command. Each section is a list of rows;
 * add a row to add a line.
 */
import { isIP } from "node:net";
import type { DemoCredentials } from "../services/bootstrap.js";

/** The address a local client reaches a server listening on `hostname` with: wildcards become loopback. */
export function clientHost(hostname: string): string {
  if (hostname === "" || hostname === "0.0.0.0" || hostname === "::") return "127.0.0.1";
  return isIP(hostname) === 6 ? `[${hostname}]` : hostname;
}

/** `http://<host>:<port>` (or https) a local client uses to reach the server. */
export function baseUrl(hostname: string, port: number, scheme: "http" | "https" = "http"): string {
  return `${scheme}://${clientHost(hostname)}:${port}`;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command line: JSON body when `body` is given, the bearer key when `key` is. */
function curl(url: string, options: { key?: string; body?: unknown; host?: string; caFile?: string } = {}): string {
  const parts = ["curl", "-s", url];
  if (options.caFile) parts.push("--cacert", quote(options.caFile));
  if (options.host) parts.push("-H", quote(`Host: ${options.host}`));
  if (options.key) parts.push("-H", quote(`Authorization: Bearer ${options.key}`));
  if (options.body !== undefined) parts.push("-H", quote("Content-Type: application/json"), "-d", quote(JSON.stringify(options.body)));
  return parts.join(" ");
}

const table = (rows: [string, string][]) => {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
};

/** Most workspaces whose dashboard a start lists; the rest are one `svc workspaces list` away. */
const LISTED_DASHBOARDS = 5;

/**
 * The dashboard URL of each workspace (the first few), printed on every start so a restart still
 * says where to sign in; never a credential. Empty without a dashboard.
 */
export function dashboardLines(workspaces: { slug: string; dashboard_host?: string }[], base: string, dashboard = true): string[] {
  const rows = workspaces
    .filter((w) => w.dashboard_host)
    .map((w): [string, string] => [`dashboard (${w.slug})`, dashboardAt(base, w.dashboard_host!)]);
  if (!dashboard || rows.length === 0) return [];
  const more = rows.length - LISTED_DASHBOARDS;
  return [...table(rows.slice(0, LISTED_DASHBOARDS)), ...(more > 0 ? [`  and ${more} more (svc workspaces list)`] : [])];
}

/** The first-run lines: credentials, then a collection, a published entry and the public read. */
/** `caFile`: the local CA of `--https`, which the printed curl commands trust. */
export function demoBanner(demo: DemoCredentials, base: string, dashboard = true, caFile?: string): string[] {
  const host = new URL(base).host;
  // The URL's own host is normally a demo host; else name one explicitly (a custom interface).
  const hostHeader = demo.hosts.includes(new URL(base).hostname) ? undefined : demo.hosts[0];
  const credentials: [string, string][] = [
    ["hosts", `${demo.hosts.join(", ")} (any port)`],
    ...(demo.owner ? [["owner sign-in", `${demo.owner.email} / ${demo.owner.password}`] as [string, string]] : []),
    ...(demo.apiKey ? [["API key", demo.apiKey] as [string, string]] : []),
    // *.localhost resolves to this machine in browsers, so the URL opens when pasted.
    ...(dashboard && demo.dashboardHost ? [["dashboard", dashboardAt(base, demo.dashboardHost)] as [string, string]] : []),
  ];
  const lines = [`Created the demo workspace (shown once, keep it):`, ...table(credentials)];
  if (demo.apiKey) {
    const key = demo.apiKey;
    lines.push(
      `Try it on ${host}: create a collection, publish an entry, read it as a website would:`,
      `  ${curl(`${base}/api/dashboard/collections`, { key, host: hostHeader, caFile, body: { name: "posts", access: "public", fields: [{ name: "title", type: "string", required: true }] } })}`,
      `  ${curl(`${base}/api/dashboard/collections/posts/entries`, { key, host: hostHeader, caFile, body: { _status: "published", title: "Hello, world" } })}`,
      `  ${curl(`${base}/api/v1/posts`, { host: hostHeader, caFile })}`,
    );
  }
  return lines;
}

/** The dashboard on `host` at the server's scheme and port (none printed for the scheme's default). */
function dashboardAt(base: string, host: string): string {
  const url = new URL("/_/", base);
  url.hostname = host;
  return url.href;
}
