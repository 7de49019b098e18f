/**
 * PostgreSQL: the tenant a request's host names, with its content version, kept in process and
 * invalidated by push (migration 014's pg_notify, received on a LISTEN connection), so a public
 * read — cached or not — costs no round trip for tenant resolution.
 *
 * - On the instance that wrote: every write through the tracked Sql flushes the copy as soon as
 *   it has committed, before the writer answers, so its own next read is never stale.
 * - On other instances: stale until the notification arrives (milliseconds; docs/production.md).
 *   While the LISTEN connection is down or not yet listening, nothing is served from memory (one
 *   round trip, as without push) and the copy is flushed when listening starts again.
 * - A generation counter, bumped by every flush and notification, keeps a lookup that raced with
 *   a change from filling the copy with what it read before the change.
 * - Credentials are not served from here: a request presenting one asks `fresh` (the credentials
 *   version with a round trip), and a remembered tenant has no credentials version, so the key
 *   cache asks the database should one ever be used with it.
 */
import type { Sql } from "./sql.js";
import type { ResolvedWorkspace, WorkspaceRepo } from "./workspaces.js";
import { VERSIONS_CHANNEL } from "./migrations/014-version-push.js";

/** Beyond this many remembered hosts the copy starts over (it only holds hosts that exist). */
const MAX_HOSTS = 10_000;

export interface VersionPush {
  /** `sql` whose every write flushes the copy once it has committed. */
  track(sql: Sql): Sql;
  /** `repo` whose byHost answers from memory while listening, unless asked for a fresh read. */
  workspaces(repo: WorkspaceRepo): WorkspaceRepo;
  /** Whether the LISTEN connection is up (the copy is in use). */
  readonly listening: boolean;
  close(): Promise<void>;
}

/** Undefined when the database cannot push (SQLite). */
export function startVersionPush(sql: Sql, onState?: (listening: boolean) => void): VersionPush | undefined {
  if (!sql.listen) return undefined;
  const tenants = new Map<string, ResolvedWorkspace>();
  const hostsOf = new Map<string, string[]>();
  let generation = 0;
  let listening = false;

  const flush = () => {
    generation++;
    tenants.clear();
    hostsOf.clear();
  };
  const forget = (workspaceId: string) => {
    for (const host of hostsOf.get(workspaceId) ?? []) tenants.delete(host);
    hostsOf.delete(workspaceId);
  };
  const remember = (host: string, workspace: ResolvedWorkspace) => {
    if (tenants.size >= MAX_HOSTS) flush();
    const { credentialsVersion: _, ...kept } = workspace;
    tenants.set(host, Object.freeze(kept));
    const hosts = hostsOf.get(workspace.id);
    if (hosts) hosts.push(host);
    else hostsOf.set(workspace.id, [host]);
  };

  const stop = sql.listen(VERSIONS_CHANNEL, {
    message(payload) {
      generation++;
      if (payload.startsWith("w:")) forget(payload.slice(2));
      else flush();
    },
    state(up) {
      flush();
      listening = up;
      onState?.(up);
    },
  });

  return {
    track: (inner) => trackWrites(inner, flush),
    workspaces: (repo) => ({
      ...repo,
      async byHost(host, options) {
        if (listening && !options?.fresh) {
          const hit = tenants.get(host);
          if (hit) return hit;
        }
        const seen = generation;
        const workspace = await repo.byHost(host);
        if (workspace && listening && seen === generation && !tenants.has(host)) remember(host, workspace);
        return workspace;
      },
    }),
    get listening() {
      return listening;
    },
    close: stop,
  };
}

/** Statements that only read; anything else may write (INSERT … RETURNING through `get`, say). */
const READ_ONLY = /^\s*select\b/i;

/** `sql` calling `flush` once each write (or transaction) has settled: committed or rolled back. */
function trackWrites(sql: Sql, flush: () => void): Sql {
  const after = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } finally {
      flush();
    }
  };
  return {
    dialect: sql.dialect,
    db0: sql.db0,
    all: (s, p) => (READ_ONLY.test(s) ? sql.all(s, p) : after(sql.all(s, p))),
    get: (s, p) => (READ_ONLY.test(s) ? sql.get(s, p) : after(sql.get(s, p))),
    run: (s, p) => after(sql.run(s, p)),
    exec: (s) => after(sql.exec(s)),
    transaction: (fn) => after(sql.transaction(fn)),
    // Reads only: nothing to flush.
    withStatementTimeout: sql.withStatementTimeout?.bind(sql),
    close: () => sql.close(),
    listen: sql.listen?.bind(sql),
  };
}
