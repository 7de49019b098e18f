/**
 * Shared helpers for the dispatcher tests: a real HTTPS receiver on 127.0.0.1 (port 0) with the
 * test CA, event and target factories, a capturing logger and a fake clock.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ContentEventName, ServiceEvent } from "../../src/core/events.js";
import { afterEach } from "vitest";
import { createDispatcher, type DispatcherClock, type DispatcherLogger, type DispatcherOptions, type WebhookTarget } from "../../src/webhooks/index.js";

const tls = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url), "utf8");
export const CA = tls("ca.pem");
const KEY = tls("server-key.pem");
const CERT = tls("server-cert.pem");

export const SECRET = "whsec_test_secret_value_0123456789";

export interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Names and values as sent, in pairs (Node's `headers` leaves out a header named `__proto__`). */
  rawHeaders: string[];
  raw: Buffer;
}

export interface Receiver {
  port: number;
  /** `https://<host>:<port><path>`, host defaults to 127.0.0.1. */
  url(path?: string, host?: string): string;
  requests: Received[];
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
  server: Server;
}

type Handler = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

/** A real HTTPS receiver. The handler answers (default 200 "ok"); a handler may leave the request hanging. */
export async function startReceiver(handler: Handler = (_req, res) => res.end("ok")): Promise<Receiver> {
  const requests: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer({ key: KEY, cert: CERT }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received: Received = { at: Date.now(), method: req.method!, path: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, raw: Buffer.concat(chunks) };
      requests.push(received);
      for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve();
      handler(req, res, received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    server,
    requests,
    url: (path = "/hook", host = "127.0.0.1") => `https://${host}:${port}${path}`,
    waitFor(count, timeoutMs = 5000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${requests.length}/${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(requests)) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A content event for entry `entryId` (`n` distinguishes states of the same entry). */
export function contentEvent(
  event: ContentEventName,
  entryId = uuid(1),
  fields: Record<string, unknown> = {},
): Extract<ServiceEvent, { event: ContentEventName }> {
  return {
    workspaceId: "ws-1",
    event,
    data: {
      collection: "posts",
      entry: {
        id: entryId,
        _status: event === "content.published" ? "published" : "draft",
        _published_at: null,
        _created_by: uuid(99),
        _created_at: "2025-01-01T00:00:00.000Z",
        _updated_at: new Date().toISOString(),
        title: `t${++seq}`,
        ...fields,
      },
    },
  };
}

export const entryId = uuid;

export function formEvent(): ServiceEvent {
  return {
    workspaceId: "ws-1",
    event: "form.submitted",
    data: {
      form: { id: uuid(7), slug: "contact", name: "Contact" },
      formId: uuid(7),
      submission: { id: uuid(8), _submitted_at: "2025-01-01T00:00:00.000Z" },
    },
  };
}

export function target(url: string, overrides: Partial<WebhookTarget> = {}): WebhookTarget {
  return {
    id: "wh-1",
    workspaceId: "ws-1",
    url,
    events: ["content.created", "content.updated", "content.deleted", "content.published", "content.unpublished", "form.submitted"],
    active: true,
    format: "service",
    headers: {},
    secret: SECRET,
    debounceMs: 0,
    debounceScope: "entry",
    ...overrides,
  };
}

/** A source serving fixed targets (filtered like the real one: active + subscribed). */
export function sourceOf(...targets: WebhookTarget[]) {
  return {
    calls: 0,
    async targetsFor(workspaceId: string, event: string) {
      this.calls++;
      return targets.filter((t) => t.workspaceId === workspaceId && t.active && (t.events as string[]).includes(event));
    },
  };
}

/** Logger capturing every line as text. */
export function captureLogger(): DispatcherLogger & { lines: string[]; text(): string } {
  const lines: string[] = [];
  const put = (level: string) => (...args: unknown[]) => lines.push(`${level} ${args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")}`);
  return { lines, info: put("info"), warn: put("warn"), error: put("error"), debug: put("debug"), text: () => lines.join("\n") };
}

/** Deterministic clock: timers run only on `advance`. */
export function createFakeClock(start = Date.parse("2025-06-01T00:00:00.000Z")) {
  let now = start;
  let next = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: DispatcherClock & { advance(ms: number): void; readonly timers: number } = {
    now: () => now,
    setTimeout(fn, ms) {
      timers.set(++next, { at: now + ms, fn });
      return next;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let due: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
    get timers() {
      return timers.size;
    },
  };
  return clock;
}

/** Real clock that counts live timers, to prove none is left behind. */
export function countingClock() {
  const live = new Set<ReturnType<typeof setTimeout>>();
  return {
    live,
    now: () => Date.now(),
    setTimeout(fn: () => void, ms: number) {
      const handle = setTimeout(() => (live.delete(handle), fn()), ms);
      live.add(handle);
      return handle;
    },
    clearTimeout(handle: unknown) {
      live.delete(handle as ReturnType<typeof setTimeout>);
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets pending promise callbacks (target lookups) run. */
export const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const r = await startReceiver();
  await r.close();
  return r.port;
}

/**
 * Receivers and dispatchers closed after each test of the calling file. `defaults` are the
 * file's dispatcher options (the test CA is always trusted; each dispatcher gets a captured logger).
 */
export function dispatcherRig(defaults: Partial<DispatcherOptions>) {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  return {
    async receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const r = await startReceiver(...args);
      cleanup.push(() => r.close());
      return r;
    },
    dispatcher(options: Partial<DispatcherOptions>) {
      const logger = captureLogger();
      const d = createDispatcher({ ca: CA, logger, ...defaults, ...options } as DispatcherOptions);
      cleanup.push(() => d.close({ graceMs: 100 }));
      return Object.assign(d, { logger });
    },
  };
}
