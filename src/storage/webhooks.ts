/**
 * Webhooks at rest (spec 2.6): secrets and custom header values sealed (AES-256-GCM), only the
 * sorted header names readable. The record shape returned here is exactly the API's (spec 4.3).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { EventName, WebhookFormat } from "../core/events.js";
import { badRequest, notFound } from "../core/errors.js";
import type { DebounceScope } from "../core/webhook-policy.js";
import type { StorageContext } from "./context.js";
import type { WebhookTarget } from "../core/webhook-target.js";

/** The API record (spec 4.3): never the secret, never a header value. */
export interface WebhookRecord {
  id: string;
  url: string;
  events: EventName[];
  active: boolean;
  format: WebhookFormat;
  header_names: string[];
  /**
   * Opt-in features beyond the spec, present only when on (absent = false): a webhook with every
   * option off answers exactly the record of spec 4.3. log_deliveries: the delivery log;
   * standard_webhooks: the Standard Webhooks headers next to X-Service-Signature.
   */
  log_deliveries?: true;
  standard_webhooks?: true;
  created_at: string;
}

/** The dashboard's settings view (DESIGN §4.2): the one place the secret appears over HTTP. */
export interface WebhookSettings {
  active: boolean;
  debounce_ms: number;
  debounce_scope: DebounceScope;
  secret: string;
  /** As on the record: present only when on. */
  log_deliveries?: true;
  standard_webhooks?: true;
  /** End of an open rotation window (the previous secret still signs webhook-signature); absent otherwise. */
  previous_secret_until?: string;
}

/** Flags a create, a PUT or the settings may change. */
export interface WebhookFlags {
  logDeliveries?: boolean;
  standardWebhooks?: boolean;
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
  log_deliveries: number;
  standard_webhooks: number;
  previous_secret_sealed: string | null;
  previous_secret_until: string | null;
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
  ...flagFields(r),
  created_at: r.created_at,
});

/** The opt-in flags that are on, as response fields (absent when off). */
function flagFields(r: Row): { log_deliveries?: true; standard_webhooks?: true } {
  return {
    ...(Number(r.log_deliveries) ? { log_deliveries: true as const } : {}),
    ...(Number(r.standard_webhooks) ? { standard_webhooks: true as const } : {}),
  };
}

const flag = (value: boolean | undefined, current: number) => (value === undefined ? Number(current) : value ? 1 : 0);

const sortedNames = (headers: Record<string, string>) => Object.keys(headers).sort((a, b) => a.localeCompare(b));

export function createWebhookRepo(ctx: StorageContext) {
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
    logDeliveries: Boolean(Number(r.log_deliveries)),
    standardWebhooks: Boolean(Number(r.standard_webhooks)),
    ...(r.previous_secret_sealed && r.previous_secret_until
      ? { previousSecret: { secret: sealer.open(r.previous_secret_sealed), until: Date.parse(r.previous_secret_until) } }
      : {}),
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
      input: { url: string; events: EventName[]; format: WebhookFormat; headers: Record<string, string>; active: boolean } & WebhookFlags,
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
        log_deliveries: input.logDeliveries ? 1 : 0,
        standard_webhooks: input.standardWebhooks ? 1 : 0,
        previous_secret_sealed: null,
        previous_secret_until: null,
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
            debounce_ms, debounce_scope, log_deliveries, standard_webhooks, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [r.id, workspaceId, r.url, r.events, r.active, r.format, r.headers_sealed, r.header_names, r.secret_sealed, 0, "entry", r.log_deliveries, r.standard_webhooks, now, now],
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
      patch: { url?: string; events?: EventName[]; format?: WebhookFormat; headers?: Record<string, string>; active?: boolean } & WebhookFlags,
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
        log_deliveries: flag(patch.logDeliveries, current.log_deliveries),
        standard_webhooks: flag(patch.standardWebhooks, current.standard_webhooks),
      };
      await sql.run(
        `UPDATE webhooks SET url = ?, events = ?, format = ?, active = ?, headers_sealed = ?, header_names = ?, log_deliveries = ?,
          standard_webhooks = ?, updated_at = ? WHERE id = ? AND workspace_id = ?`,
        [
          next.url,
          next.events,
          next.format,
          next.active,
          next.headers_sealed,
          next.header_names,
          next.log_deliveries,
          next.standard_webhooks,
          new Date(ctx.now()).toISOString(),
          id,
          workspaceId,
        ],
      );
      return toRecord(next);
    },

    async remove(workspaceId: string, id: string): Promise<void> {
      // The log goes with the webhook (the foreign key cascades too; explicit so it never depends on it).
      const changes = await sql.transaction(async (tx) => {
        await tx.run("DELETE FROM webhook_deliveries WHERE webhook_id = ? AND workspace_id = ?", [id, workspaceId]);
        return (await tx.run("DELETE FROM webhooks WHERE id = ? AND workspace_id = ?", [id, workspaceId])).changes;
      });
      if (changes === 0) throw notFound("Webhook not found");
    },

    async settings(workspaceId: string, id: string): Promise<WebhookSettings> {
      const r = await row(workspaceId, id);
      return {
        active: Boolean(r.active),
        debounce_ms: Number(r.debounce_ms),
        debounce_scope: r.debounce_scope === "webhook" ? "webhook" : "entry",
        secret: sealer.open(r.secret_sealed),
        ...flagFields(r),
        ...(r.previous_secret_until && Date.parse(r.previous_secret_until) > ctx.now() ? { previous_secret_until: r.previous_secret_until } : {}),
      };
    },

    async updateSettings(
      workspaceId: string,
      id: string,
      patch: { active?: boolean; debounce_ms?: number; debounce_scope?: DebounceScope } & WebhookFlags,
    ): Promise<WebhookSettings> {
      const r = await row(workspaceId, id);
      await sql.run(
        `UPDATE webhooks SET active = ?, debounce_ms = ?, debounce_scope = ?, log_deliveries = ?, standard_webhooks = ?, updated_at = ?
          WHERE id = ? AND workspace_id = ?`,
        [
          patch.active === undefined ? r.active : patch.active ? 1 : 0,
          patch.debounce_ms ?? r.debounce_ms,
          patch.debounce_scope ?? r.debounce_scope,
          flag(patch.logDeliveries, r.log_deliveries),
          flag(patch.standardWebhooks, r.standard_webhooks),
          new Date(ctx.now()).toISOString(),
          id,
          workspaceId,
        ],
      );
      return this.settings(workspaceId, id);
    },

    /**
     * A new secret (returned once, to the caller). With `windowMs` > 0 the current one becomes the
     * previous secret, sealed like it, and keeps signing webhook-signature until the window ends;
     * a previous secret of an earlier rotation is replaced.
     */
    async rotateSecret(workspaceId: string, id: string, windowMs: number): Promise<{ secret: string; previous_secret_until: string | null }> {
      const r = await row(workspaceId, id);
      const secret = generateWebhookSecret();
      const until = windowMs > 0 ? new Date(ctx.now() + windowMs).toISOString() : null;
      await sql.run(
        "UPDATE webhooks SET secret_sealed = ?, previous_secret_sealed = ?, previous_secret_until = ?, updated_at = ? WHERE id = ? AND workspace_id = ?",
        [sealer.seal(secret), until ? r.secret_sealed : null, until, new Date(ctx.now()).toISOString(), id, workspaceId],
      );
      return { secret, previous_secret_until: until };
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
