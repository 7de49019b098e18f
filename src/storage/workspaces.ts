/**
 * Workspaces (tenants) and the hostnames that address them (spec 1).
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict } from "../core/errors.js";
import { defaultDashboardHost, normalizeHost, validateSlug } from "../core/tenancy.js";
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
  /** Serves the dashboard at `/_/` and never site files; undefined when the workspace has none. */
  dashboard_host: string | undefined;
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

interface HostRow {
  host: string;
  dashboard: number;
}

const toWorkspace = (row: Row, hosts: HostRow[]): Workspace => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  identity: Boolean(row.identity),
  selfSignup: Boolean(row.self_signup),
  hosts: hosts.filter((h) => !Number(h.dashboard)).map((h) => h.host).sort(),
  dashboard_host: hosts.find((h) => Number(h.dashboard))?.host,
  created_at: row.created_at,
});

export function createWorkspaceRepo(sql: Sql) {
  const hostsOf = (id: string) => sql.all<HostRow>("SELECT host, dashboard FROM workspace_hosts WHERE workspace_id = ?", [id]);
  /** The conflict message naming the first of `hosts` (in the order given) that is taken. */
  const takenMessage = async (hosts: string[]) => {
    const rows = await sql.all<{ host: string }>(`SELECT host FROM workspace_hosts WHERE host IN (${hosts.map(() => "?").join(", ")})`, hosts);
    const taken = hosts.find((h) => rows.some((r) => r.host === h));
    return taken ? `Host ${taken} already belongs to a workspace` : undefined;
  };

  return {
    /**
     * The workspace a request's hostname names, or undefined (spec 1.2), with its content and
     * credentials versions read in the same indexed query (the delivery and key caches need them,
     * read before any data). `fresh` matters only to a copy kept in memory (storage/version-push.ts):
     * this query is always fresh.
     */
    async byHost(host: string, _options?: { fresh?: boolean }): Promise<ResolvedWorkspace | undefined> {
      const row = await sql.get<
        Row & { content_version: number | null; credentials_version: number | null; dashboard: number; dashboard_host: string | null }
      >(
        `SELECT w.id, w.slug, w.name, w.identity, w.self_signup, w.created_at, h.dashboard,
           (SELECT v.version FROM content_versions v WHERE v.workspace_id = w.id) AS content_version,
           (SELECT c.version FROM credentials_versions c WHERE c.workspace_id = w.id) AS credentials_version,
           (SELECT d.host FROM workspace_hosts d WHERE d.workspace_id = w.id AND d.dashboard = 1) AS dashboard_host
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
            credentialsVersion: Number(row.credentials_version ?? 0),
            onDashboardHost: Boolean(Number(row.dashboard)),
            dashboardHost: row.dashboard_host ?? undefined,
          }
        : undefined;
    },

    async bySlug(slug: string): Promise<Workspace | undefined> {
      const row = await sql.get<Row>("SELECT id, slug, name, identity, self_signup, created_at FROM workspaces WHERE slug = ?", [slug]);
      return row ? toWorkspace(row, await hostsOf(row.id)) : undefined;
    },

    async list(): Promise<Workspace[]> {
      const rows = await sql.all<Row>("SELECT id, slug, name, identity, self_signup, created_at FROM workspaces ORDER BY slug");
      const hosts = await sql.all<HostRow & { workspace_id: string }>("SELECT host, dashboard, workspace_id FROM workspace_hosts");
      return rows.map((r) => toWorkspace(r, hosts.filter((h) => h.workspace_id === r.id)));
    },

    async count(): Promise<number> {
      const row = await sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM workspaces");
      return Number(row?.n ?? 0);
    },

    /** `dashboardHost` defaults to `admin.<first named host>` (a conflict on it is a 409 like any host). */
    async create(input: {
      slug: string;
      hosts: string[];
      name?: string;
      identity?: boolean;
      selfSignup?: boolean;
      dashboardHost?: string;
    }): Promise<Workspace> {
      const slug = validateSlug(input.slug);
      if (input.hosts.length === 0) throw badRequest("A workspace needs at least one host (--host)");
      const hosts = [...new Set(input.hosts.map((h) => normalizeHost(h)))];
      const dashboardHost = input.dashboardHost === undefined ? defaultDashboardHost(hosts) : normalizeHost(input.dashboardHost);
      if (dashboardHost && hosts.includes(dashboardHost)) throw badRequest(`The dashboard host ${dashboardHost} cannot also be a site host`);
      const allHosts = dashboardHost ? [...hosts, dashboardHost] : hosts;
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
          for (const host of allHosts) {
            await tx.run("INSERT INTO workspace_hosts (host, workspace_id, dashboard) VALUES (?, ?, ?)", [host, row.id, host === dashboardHost ? 1 : 0]);
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict((await takenMessage(allHosts)) ?? `Workspace ${slug} already exists`);
        throw error;
      }
      return toWorkspace(row, allHosts.map((host) => ({ host, dashboard: host === dashboardHost ? 1 : 0 })));
    },

    /** Moves the workspace's dashboard to another host name (it must not address any workspace yet). */
    async setDashboardHost(id: string, host: string): Promise<void> {
      const normalized = normalizeHost(host);
      try {
        await sql.transaction(async (tx) => {
          await tx.run("DELETE FROM workspace_hosts WHERE workspace_id = ? AND dashboard = 1", [id]);
          await tx.run("INSERT INTO workspace_hosts (host, workspace_id, dashboard) VALUES (?, ?, 1)", [normalized, id]);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict((await takenMessage([normalized]))!);
        throw error;
      }
    },

    /**
     * Replaces the site hosts that address the workspace (its dashboard host stays). A host of
     * another workspace is a 409 naming it; the dashboard host cannot also be a site host (400).
     */
    async setHosts(id: string, hosts: string[]): Promise<void> {
      const normalized = [...new Set(hosts.map((h) => normalizeHost(h)))];
      if (normalized.length === 0) throw badRequest("A workspace needs at least one host (--host)");
      const dashboard = (await hostsOf(id)).find((h) => Number(h.dashboard))?.host;
      if (dashboard && normalized.includes(dashboard)) throw badRequest(`The dashboard host ${dashboard} cannot also be a site host`);
      try {
        await sql.transaction(async (tx) => {
          await tx.run("DELETE FROM workspace_hosts WHERE workspace_id = ? AND dashboard = 0", [id]);
          for (const host of normalized) await tx.run("INSERT INTO workspace_hosts (host, workspace_id, dashboard) VALUES (?, ?, 0)", [host, id]);
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const rows = await sql.all<{ host: string }>(
          `SELECT host FROM workspace_hosts WHERE workspace_id <> ? AND host IN (${normalized.map(() => "?").join(", ")})`,
          [id, ...normalized],
        );
        const taken = normalized.find((h) => rows.some((r) => r.host === h));
        throw conflict(`Host ${taken ?? normalized[0]} already belongs to a workspace`);
      }
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

/** What the router knows about the workspace a request's host names. */
export type ResolvedWorkspace = Omit<Workspace, "hosts" | "dashboard_host"> & {
  contentVersion: number;
  /** Left out by a tenant served from memory (storage/version-push.ts): the key cache then asks the database. */
  credentialsVersion?: number;
  /** The request came on the workspace's dashboard host. */
  onDashboardHost: boolean;
  dashboardHost: string | undefined;
};
