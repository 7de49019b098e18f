/**
 * Workspaces (tenants) and the hostnames that address them (spec 1).
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict } from "../core/errors.js";
import { normalizeHost, validateSlug } from "../core/tenancy.js";
import type { Sql } from "./sql.js";
import { isUniqueViolation } from "./driver-errors.js";

export interface Workspace {
  id: string;
  slug: string;
  name: string;
  identity: boolean;
  /** Whether visitors may create their own accounts (POST /api/v1/accounts/signup); off by default. */
  selfSignup: boolean;
  hosts: string[];
  created_at: string;
}

interface Row {
  id: string;
  slug: string;
  name: string;
  identity: number;
  self_signup: number;
  created_at: string;
}

const toWorkspace = (row: Row, hosts: string[]): Workspace => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  identity: Boolean(row.identity),
  selfSignup: Boolean(row.self_signup),
  hosts: [...hosts].sort(),
  created_at: row.created_at,
});

export function createWorkspaceRepo(sql: Sql) {
  const hostsOf = async (id: string) =>
    (await sql.all<{ host: string }>("SELECT host FROM workspace_hosts WHERE workspace_id = ?", [id])).map((r) => r.host);

  return {
    /**
     * The workspace a request's hostname names, or undefined (spec 1.2), with its content version
     * read in the same indexed query (the delivery cache needs it, read before any data).
     */
    async byHost(host: string): Promise<(Omit<Workspace, "hosts"> & { contentVersion: number }) | undefined> {
      const row = await sql.get<Row & { content_version: number | null }>(
        `SELECT w.id, w.slug, w.name, w.identity, w.self_signup, w.created_at,
           (SELECT v.version FROM content_versions v WHERE v.workspace_id = w.id) AS content_version
         FROM workspace_hosts h JOIN workspaces w ON w.id = h.workspace_id WHERE h.host = ?`,
        [host],
      );
      return row
        ? {
            id: row.id,
            slug: row.slug,
            name: row.name,
            identity: Boolean(row.identity),
            selfSignup: Boolean(row.self_signup),
            created_at: row.created_at,
            contentVersion: Number(row.content_version ?? 0),
          }
        : undefined;
    },

    async bySlug(slug: string): Promise<Workspace | undefined> {
      const row = await sql.get<Row>("SELECT id, slug, name, identity, self_signup, created_at FROM workspaces WHERE slug = ?", [slug]);
      return row ? toWorkspace(row, await hostsOf(row.id)) : undefined;
    },

    async list(): Promise<Workspace[]> {
      const rows = await sql.all<Row>("SELECT id, slug, name, identity, self_signup, created_at FROM workspaces ORDER BY slug");
      const hosts = await sql.all<{ host: string; workspace_id: string }>("SELECT host, workspace_id FROM workspace_hosts");
      return rows.map((r) => toWorkspace(r, hosts.filter((h) => h.workspace_id === r.id).map((h) => h.host)));
    },

    async count(): Promise<number> {
      const row = await sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM workspaces");
      return Number(row?.n ?? 0);
    },

    async create(input: { slug: string; hosts: string[]; name?: string; identity?: boolean; selfSignup?: boolean }): Promise<Workspace> {
      const slug = validateSlug(input.slug);
      if (input.hosts.length === 0) throw badRequest("A workspace needs at least one host (--host)");
      const hosts = [...new Set(input.hosts.map((h) => normalizeHost(h)))];
      const row: Row = {
        id: randomUUID(),
        slug,
        name: input.name ?? slug,
        identity: input.identity ? 1 : 0,
        self_signup: input.selfSignup ? 1 : 0,
        created_at: new Date().toISOString(),
      };
      try {
        await sql.transaction(async (tx) => {
          await tx.run("INSERT INTO workspaces (id, slug, name, identity, self_signup, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
            row.id,
            row.slug,
            row.name,
            row.identity,
            row.self_signup,
            row.created_at,
          ]);
          for (const host of hosts) await tx.run("INSERT INTO workspace_hosts (host, workspace_id) VALUES (?, ?)", [host, row.id]);
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          const taken = await sql.get<{ host: string }>(
            `SELECT host FROM workspace_hosts WHERE host IN (${hosts.map(() => "?").join(", ")})`,
            hosts,
          );
          throw conflict(taken ? `Host ${taken.host} already belongs to a workspace` : `Workspace ${slug} already exists`);
        }
        throw error;
      }
      return toWorkspace(row, hosts);
    },

    async setIdentity(id: string, identity: boolean): Promise<void> {
      await sql.run("UPDATE workspaces SET identity = ? WHERE id = ?", [identity ? 1 : 0, id]);
    },

    async setSelfSignup(id: string, selfSignup: boolean): Promise<void> {
      await sql.run("UPDATE workspaces SET self_signup = ? WHERE id = ?", [selfSignup ? 1 : 0, id]);
    },
  };
}

export type WorkspaceRepo = ReturnType<typeof createWorkspaceRepo>;
