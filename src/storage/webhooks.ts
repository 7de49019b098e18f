/**
 * Webhooks at rest (spec 2.6): secrets and custom header values sealed (AES-256-GCM), only the
 * sorted header names readable. The record shape returned here is exactly the API's (spec 4.3).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { EventName, WebhookFormat } from "../core/events.js";
import { badRequest, notFound } from "../core/errors.js";
import type { DebounceScope } from "../core/webhook-policy.js";
import type { ServiceContext } from "../service-context.js";
import type { WebhookTarget } from "../webhooks/types.js";

/** The API record (spec 4.3): never the secret, never a header value. */
export interface WebhookRecord {
  id: string;
  url: string;
  events: EventName[];
  active: boolean;
  format: WebhookFormat;
  header_names: string[];
  created_at: string;
}

/** The dashboard's settings view (DESIGN §4.2): the one place the secret appears over HTTP. */
export interface WebhookSettings {
  active: boolean;
  debounce_ms: number;
  debounce_scope: DebounceScope;
  secret: string;
}

interface Row {
  id: string;
  workspace_id: string;
  url: string;
  events: string;
  active: number;
  format: string;
  headers_sealed: string | null;
  header_names: string;
  secret_sealed: string;
  debounce_ms: number;
  debounce_scope: string;
  created_at: string;
}

/** Abuse limit: webhooks per workspace. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 50;

/** `whsec_` + 32 random bytes as hex; the whole string is the HMAC key (spec 6.4). */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString("hex")}`;

const toRecord = (r: Row): WebhookRecord => ({
  id: r.id,
  url: r.url,
  events: JSON.parse(r.events) as EventName[],
  active: Boolean(r.active),
  format: r.format as WebhookFormat,
  header_names: JSON.parse(r.header_names) as string[],
  created_at: r.created_at,
});

const sortedNames = (headers: Record<string, string>) => Object.keys(headers).sort((a, b) => a.localeCompare(b));

export function createWebhookRepo(ctx: ServiceContext) {
  const { sql, sealer } = ctx;
  const find = (workspaceId: string, id: string) => sql.get<Row>("SELECT * FROM webhooks WHERE id = ? AND workspace_id = ?", [id, workspaceId]);
  const row = async (workspaceId: string, id: string) => {
    const r = await find(workspaceId, id);
    if (!r) throw notFound("Webhook not found");
    return r;
  };
  const openHeaders = (r: Row): Record<string, string> =>
    r.headers_sealed ? (JSON.parse(sealer.open(r.headers_sealed)) as Record<string, string>) : {};
  const sealHeaders = (headers: Record<string, string>) =>
    Object.keys(headers).length ? sealer.seal(JSON.stringify(headers)) : null;

  // Opened targets by webhook id, valid while every stored column is as it was.
  const opened = new Map<string, { stamp: string; target: WebhookTarget }>();
  const openedTarget = (r: Row): WebhookTarget => {
    const stamp = JSON.stringify(r);
    const hit = opened.get(r.id);
    if (hit?.stamp === stamp) return hit.target;
    if (opened.size >= 10_000) opened.clear();
    const target = toTarget(r);
    opened.set(r.id, { stamp, target });
    return target;
  };
  const toTarget = (r: Row): WebhookTarget => ({
    id: r.id,
    workspaceId: r.workspace_id,
    url: r.url,
    events: JSON.parse(r.events) as EventName[],
    active: Boolean(r.active),
    format: r.format as WebhookFormat,
    headers: openHeaders(r),
    secret: sealer.open(r.secret_sealed),
    debounceMs: Number(r.debounce_ms),
    debounceScope: r.debounce_scope === "webhook" ? "webhook" : "entry",
  });

  return {
    async list(workspaceId: string): Promise<WebhookRecord[]> {
      return (await sql.all<Row>("SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, id", [workspaceId])).map(toRecord);
    },

    async get(workspaceId: string, id: string): Promise<WebhookRecord> {
      return toRecord(await row(workspaceId, id));
    },

    async create(
      workspaceId: string,
      input: { url: string; events: EventName[]; format: WebhookFormat; headers: Record<string, string>; active: boolean },
    ): Promise<WebhookRecord> {
      const now = new Date(ctx.now()).toISOString();
      const r: Row = {
        id: randomUUID(),
        workspace_id: workspaceId,
        url: input.url,
        events: JSON.stringify(input.events),
        active: input.active ? 1 : 0,
        format: input.format,
        headers_sealed: sealHeaders(input.headers),
        header_names: JSON.stringify(sortedNames(input.headers)),
        secret_sealed: sealer.seal(generateWebhookSecret()),
        debounce_ms: 0,
        debounce_scope: "entry",
        created_at: now,
      };
      // Count and insert in one transaction, the workspace row locked on PostgreSQL (SQLite
      // serializes write transactions): concurrent creates cannot overshoot the cap.
      await sql.transaction(async (tx) => {
        if (tx.dialect === "postgresql") await tx.get("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", [workspaceId]);
        const count = await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhooks WHERE workspace_id = ?", [workspaceId]);
        if (Number(count?.n ?? 0) >= MAX_WEBHOOKS_PER_WORKSPACE) {
          throw badRequest(`A workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks`);
        }
        await tx.run(
          `INSERT INTO webhooks (id, workspace_id, url, events, active, format, headers_sealed, header_names, secret_sealed,
            debounce_ms, debounce_scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [r.id, workspaceId, r.url, r.events, r.active, r.format, r.headers_sealed, r.header_names, r.secret_sealed, 0, "entry", now, now],
        );
      });
      return toRecord(r);
    },

    /** Stored header values, decrypted, for applying PUT semantics (spec 4.3). */
    async headers(workspaceId: string, id: string): Promise<Record<string, string>> {
      return openHeaders(await row(workspaceId, id));
    },

    async update(
      workspaceId: string,
      id: string,
      patch: { url?: string; events?: EventName[]; format?: WebhookFormat; headers?: Record<string, string>; active?: boolean },
    ): Promise<WebhookRecord> {
      const current = await row(workspaceId, id);
      const next: Row = {
        ...current,
        url: patch.url ?? current.url,
        events: patch.events ? JSON.stringify(patch.events) : current.events,
        format: patch.format ?? current.format,
        active: patch.active === undefined ? current.active : patch.active ? 1 : 0,
        headers_sealed: patch.headers ? sealHeaders(patch.headers) : current.headers_sealed,
        header_names: patch.headers ? JSON.stringify(sortedNames(patch.headers)) : current.header_names,
      };
      await sql.run(
        "UPDATE webhooks SET url = ?, events = ?, format = ?, active = ?, headers_sealed = ?, header_names = ?, updated_at = ? WHERE id = ? AND workspace_id = ?",
        [next.url, next.events, next.format, next.active, next.headers_sealed, next.header_names, new Date(ctx.now()).toISOString(), id, workspaceId],
      );
      return toRecord(next);
    },

    async remove(workspaceId: string, id: string): Promise<void> {
      const { changes } = await sql.run("DELETE FROM webhooks WHERE id = ? AND workspace_id = ?", [id, workspaceId]);
      if (changes === 0) throw notFound("Webhook not found");
    },

    async settings(workspaceId: string, id: string): Promise<WebhookSettings> {
      const r = await row(workspaceId, id);
      return {
        active: Boolean(r.active),
        debounce_ms: Number(r.debounce_ms),
        debounce_scope: r.debounce_scope === "webhook" ? "webhook" : "entry",
        secret: sealer.open(r.secret_sealed),
      };
    },

    async updateSettings(
      workspaceId: string,
      id: string,
      patch: { active?: boolean; debounce_ms?: number; debounce_scope?: DebounceScope },
    ): Promise<WebhookSettings> {
      const r = await row(workspaceId, id);
      await sql.run("UPDATE webhooks SET active = ?, debounce_ms = ?, debounce_scope = ?, updated_at = ? WHERE id = ? AND workspace_id = ?", [
        patch.active === undefined ? r.active : patch.active ? 1 : 0,
        patch.debounce_ms ?? r.debounce_ms,
        patch.debounce_scope ?? r.debounce_scope,
        new Date(ctx.now()).toISOString(),
        id,
        workspaceId,
      ]);
      return this.settings(workspaceId, id);
    },

    /**
     * The dispatcher's source: active webhooks subscribed to `event`, secrets opened. The row is
     * read on every event (a change applies to the next one); the opened target is reused while
     * the row is unchanged, so a burst of events neither decrypts again nor holds a copy of the
     * target per pending delivery.
     */
    async targetsFor(workspaceId: string, event: EventName): Promise<WebhookTarget[]> {
      const rows = await sql.all<Row>("SELECT * FROM webhooks WHERE workspace_id = ? AND active = 1", [workspaceId]);
      return rows.filter((r) => (JSON.parse(r.events) as string[]).includes(event)).map((r) => openedTarget(r));
    },

    async target(workspaceId: string, id: string): Promise<WebhookTarget> {
      return openedTarget(await row(workspaceId, id));
    },

    /** The dispatcher's re-read at send time: the webhook as it is now (even inactive), undefined once deleted. */
    async current(workspaceId: string, id: string): Promise<WebhookTarget | undefined> {
      const r = await find(workspaceId, id);
      return r ? openedTarget(r) : undefined;
    },
  };
}

export type WebhookRepo = ReturnType<typeof createWebhookRepo>;
