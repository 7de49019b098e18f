/**
 * Who is calling, once a credential was checked: an API key, a dashboard user or an account of the
 * workspace's Identity. A core notion: services decide with it (gates), http and h3 produce it.
 */
import type { Grant } from "./grants.js";

export type Principal =
  | { kind: "key"; id: string; workspaceId: string; grants: readonly Grant[] }
  | { kind: "user"; id: string; workspaceId: string; role: "owner" | "member"; grants: readonly Grant[] }
  | { kind: "account"; id: string; workspaceId: string; email: string; emailVerified: boolean; attributes: Record<string, unknown> };
