/**
 * Tenancy rules (spec 1): the hostname is the only scope. Pure helpers shared by the router and
 * the CLI.
 */
import { badRequest } from "./errors.js";
import { NAME_RULES, nameRegExp } from "./names.js";

/**
 * Lower-cases a Host header value and strips the port (and a trailing dot), keeping IPv6 brackets.
 *
 * @example
 * normalizeHost("Demo.LocalHost:3000") // "demo.localhost"
 * normalizeHost("[::1]:8080") // "[::1]"
 */
export function normalizeHost(value: string): string {
  let host = value.trim().toLowerCase();
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    host = end === -1 ? host : host.slice(0, end + 1);
  } else {
    const colon = host.indexOf(":");
    if (colon !== -1) host = host.slice(0, colon);
  }
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (!host || !/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/.test(host)) {
    throw badRequest(`Invalid host name: ${JSON.stringify(value.slice(0, 100))}`);
  }
  return host;
}

/** Like normalizeHost but returns undefined instead of throwing (request routing). */
export function tryNormalizeHost(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return normalizeHost(value);
  } catch {
    return undefined;
  }
}

const WORKSPACE_SLUG = nameRegExp(NAME_RULES.workspace);

/** Workspace slugs: lowercase letters, digits and dashes, 1–63 characters, starting with a letter. */
export function validateSlug(value: unknown, what = "Workspace slug"): string {
  if (typeof value !== "string" || !WORKSPACE_SLUG.test(value)) {
    throw badRequest(`${what} must be ${NAME_RULES.workspace.hint}`);
  }
  return value;
}

/** True for an IPv4 or bracketed IPv6 literal (which has no `admin.` sub-name). */
const isIpLiteral = (host: string) => host.startsWith("[") || /^\d+(\.\d+){3}$/.test(host);

/**
 * The default dashboard host of a workspace: `admin.` + its first named host (IP literals are
 * skipped), or undefined when it has only IP literals.
 *
 * @example
 * defaultDashboardHost(["localhost", "demo.localhost"]) // "admin.localhost"
 */
export function defaultDashboardHost(hosts: readonly string[]): string | undefined {
  const named = hosts.find((h) => !isIpLiteral(h));
  return named ? `admin.${named}` : undefined;
}
