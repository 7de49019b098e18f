/**
 * What a route demands: its access (who is calling, the principal, is a core notion:
 * core/principal.ts). Every route declares its access beside its path (http/routes/*), so the whole
 * access table reads in one place and docs/access.md is generated from it.
 */
import type { Grant } from "../core/grants.js";

export type Access =
  /** No credential needed; a credential sent is ignored (spec 5.2.3). */
  | { kind: "public" }
  /** A key or dashboard session holding `grant` (owners bypass grants, spec 5.5). */
  | { kind: "grant"; grant: Grant }
  /** Only an owner's dashboard session (spec 5.5: members, keys, webhooks, identity settings). */
  | { kind: "owner" }
  /** Any valid API key; the handler checks a grant per operation (MCP, spec 4.2). */
  | { kind: "key" }
  /** A dashboard session of any role (signed-in user). */
  | { kind: "session" }
  /** An account session of the workspace's Identity (spec 2.4). */
  | { kind: "account" }
  /** The handler decides (e.g. a collection that is public, private or gated, spec 4.1); it calls authenticate() itself. */
  | { kind: "custom"; describe: string };

export const access = {
  public: { kind: "public" } as Access,
  grant: (grant: Grant): Access => ({ kind: "grant", grant }),
  owner: { kind: "owner" } as Access,
  key: { kind: "key" } as Access,
  session: { kind: "session" } as Access,
  account: { kind: "account" } as Access,
  custom: (describe: string): Access => ({ kind: "custom", describe }),
};

/** One line of the access table, human-readable. */
export function describeAccess(a: Access): string {
  switch (a.kind) {
    case "public":
      return "none";
    case "grant":
      return a.grant;
    case "owner":
      return "owner only";
    case "key":
      return "valid API key (grant per tool)";
    case "session":
      return "dashboard session";
    case "account":
      return "account session";
    case "custom":
      return a.describe;
  }
}
