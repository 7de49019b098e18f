/**
 * API scenarios over real HTTP (STYLE 9, 16): a request, the status it gets, fragments of the body
 * it returns and the events it fires on the service's bus. One helper for every spec-level suite,
 * instead of a request wrapper per file.
 *
 * @example
 * const s = await scenario(driver);
 * const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
 * const owner = s.as((await createTestSession(s.svc.context, ws.id)).token);
 * (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields }))
 *   .expectStatus(201)
 *   .expectBody({ name: "posts", access: "public" });
 * (await owner.post("/api/dashboard/collections/posts/entries", { title: "Hi" })).expectStatus(201);
 * s.expectEvents(["content.created"]);
 * (await s.get("/api/v1/nope")).expectStatus(404).expectBody({ error: "Unknown collection: nope" });
 * await s.close();
 */
import { expect } from "vitest";
import type { EventName, ServiceEvent } from "../../src/core/events.js";
import type { Service, ServiceOptions } from "../../src/service.js";
import type { DriverName } from "./database.js";
import { requestAt, startTestServer, type RequestInit2, type TestServer } from "./server.js";

/** What a scenario sends its requests to: a test server, or a rig that serves the same service. */
export interface ScenarioTarget {
  svc: Service;
  request(path: string, init?: RequestInit2): Promise<Response>;
}

/** Per-request options besides method, token and JSON body: host, headers, a raw body, source address. */
export type CallInit = Omit<RequestInit2, "method" | "json" | "token">;

/** Defaults of a caller; `headers` may be a function, evaluated at each request. */
export interface CallerDefaults {
  host?: string;
  headers?: HeadersInit | (() => HeadersInit);
}

/**
 * One response, read once: status, headers, text and the JSON body (undefined when empty or not
 * JSON). The body is `any` by default: tests index into it as they would into parsed JSON. Only
 * `status` and `body` are own fields, so `expect(result).toEqual({ status: 403, body: {...} })`
 * compares exactly those two.
 */
export interface Result<T = any> {
  readonly status: number;
  readonly body: T;
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly text: string;
  /** Fails with the method, path and response text unless the status is `status`. */
  expectStatus(status: number): this;
  /** Fails unless the body is JSON matching `fragment` (toMatchObject: extra keys allowed, arrays exact). */
  expectBody(fragment: object): this;
}

/** Requests as one caller (a bearer token, or none) with optional defaults. */
export interface Caller {
  get(path: string, init?: CallInit): Promise<Result>;
  delete(path: string, init?: CallInit): Promise<Result>;
  post(path: string, json?: unknown, init?: CallInit): Promise<Result>;
  put(path: string, json?: unknown, init?: CallInit): Promise<Result>;
  patch(path: string, json?: unknown, init?: CallInit): Promise<Result>;
  /** Any method; `json` undefined sends no JSON body (pass `init.body` for raw bytes). */
  send(method: string, path: string, json?: unknown, init?: CallInit): Promise<Result>;
}

/** An anonymous caller on the service, plus callers, the events fired and teardown. */
export interface Scenario extends Caller {
  svc: Service;
  /** The server this scenario started (undefined when it wraps a target). */
  t: TestServer | undefined;
  /** The events fired since the scenario began or since the last expectEvents/clearEvents. */
  readonly events: ServiceEvent[];
  /** A caller sending `token` as a bearer token (undefined: anonymous) with the given defaults. */
  as(token: string | undefined, defaults?: CallerDefaults): Caller;
  /** Fails unless the names of the events fired since the last check are exactly `names`, in order; then starts afresh. */
  expectEvents(names: readonly EventName[]): ServiceEvent[];
  clearEvents(): void;
  /** Stops listening and, when this scenario started the server, closes it. */
  close(): Promise<void>;
}

/** A scenario that started its own server (`t`: its database, base URL, raw requests). */
export type ServerScenario = Scenario & { t: TestServer };

/**
 * A scenario on a fresh test server (`driver`, `options` as for startTestServer), or on a target
 * someone else started and closes (a rig, a second instance).
 */
export async function scenario(driver?: DriverName, options?: ServiceOptions): Promise<ServerScenario>;
export async function scenario(target: ScenarioTarget): Promise<Scenario>;
export async function scenario(from: DriverName | ScenarioTarget = "sqlite", options: ServiceOptions = {}): Promise<Scenario> {
  const t = typeof from === "string" ? await startTestServer(from, options) : undefined;
  const target: ScenarioTarget = t ?? (from as ScenarioTarget);
  const events: ServiceEvent[] = [];
  const stop = target.svc.context.bus.on((e) => events.push(e));
  const as = (token: string | undefined, defaults: CallerDefaults = {}) => createCaller((path, init) => target.request(path, init), token, defaults);
  return {
    ...as(undefined),
    svc: target.svc,
    t,
    events,
    as,
    expectEvents(names) {
      const fired = events.splice(0);
      expect(fired.map((e) => e.event)).toEqual(names);
      return fired;
    },
    clearEvents: () => void (events.length = 0),
    async close() {
      stop();
      await t?.close();
    },
  };
}

/**
 * A caller on a server at `base` whose service runs in another process (a CLI `serve`, a child
 * process): the same requests and results as a scenario's callers, without events to watch.
 *
 * @example
 * (await callerAt(instance.base, ownerToken).post("/api/dashboard/collections/posts/entries", { title: "t" })).expectStatus(201);
 */
export function callerAt(base: string, token?: string, defaults: CallerDefaults = {}): Caller {
  return createCaller((path, init) => requestAt(base, path, init), token, defaults);
}

function createCaller(request: ScenarioTarget["request"], token: string | undefined, defaults: CallerDefaults): Caller {
  const send = async (method: string, path: string, json?: unknown, init: CallInit = {}): Promise<Result> => {
    const headers = new Headers(typeof defaults.headers === "function" ? defaults.headers() : defaults.headers);
    new Headers(init.headers).forEach((v, k) => headers.set(k, v));
    const res = await request(path, { ...init, host: init.host ?? defaults.host, headers, method, token, json });
    return new ScenarioResult(method, path, res.status, res.headers, await res.text());
  };
  return {
    send,
    get: (path, init) => send("GET", path, undefined, init),
    delete: (path, init) => send("DELETE", path, undefined, init),
    post: (path, json, init) => send("POST", path, json, init),
    put: (path, json, init) => send("PUT", path, json, init),
    patch: (path, json, init) => send("PATCH", path, json, init),
  };
}

class ScenarioResult implements Result {
  readonly #method: string;
  readonly #path: string;
  readonly #headers: Headers;
  readonly #text: string;
  readonly body: any;

  constructor(
    method: string,
    path: string,
    readonly status: number,
    headers: Headers,
    text: string,
  ) {
    this.#method = method;
    this.#path = path;
    this.#headers = headers;
    this.#text = text;
    try {
      this.body = text ? JSON.parse(text) : undefined;
    } catch {
      this.body = undefined;
    }
  }

  get method() {
    return this.#method;
  }
  get path() {
    return this.#path;
  }
  get headers() {
    return this.#headers;
  }
  get text() {
    return this.#text;
  }

  expectStatus(expected: number): this {
    expect(this.status, `${this.#method} ${this.#path} → ${this.#text}`).toBe(expected);
    return this;
  }

  expectBody(fragment: object): this {
    // toMatchObject lets an empty fragment match anything, even no body at all.
    expect(this.body, `${this.#method} ${this.#path}: no JSON object in ${JSON.stringify(this.#text)}`).toBeInstanceOf(Object);
    expect(this.body, `${this.#method} ${this.#path}`).toMatchObject(fragment);
    return this;
  }
}
