/**
 * The request log of the real `svc serve` (built CLI): one line per request with method, host,
 * path (query names only), status, ms and principal; failures (401, 404, unknown host, a refused
 * body) included; never the key, a token, a password, a query value or a body. Text and
 * `--log-format json` (every line parses), `--quiet` (none). Both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli, startInstance, type Instance } from "../scale/helpers.js";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";
import { requestAt } from "../helpers/server.js";

interface Secrets {
  key: string;
  keyId: string;
  password: string;
  access: string;
  refresh: string;
  ownerId: string;
}

/** Requests of every kind against a fresh `svc serve`; returns what must never be logged. */
async function exercise(server: Instance): Promise<Secrets> {
  await server.waitForOutput(/API key\s+pk_[0-9a-f]{64}/);
  const out = readable(server.output());
  const key = /API key\s+(pk_[0-9a-f]{64})/.exec(out)![1]!;
  const [, email, password] = /owner sign-in\s+(\S+) \/ (\S+)/.exec(out)!;
  const at = (path: string, init: Parameters<typeof requestAt>[2] = {}) => requestAt(server.base, path, { host: "localhost", ...init });
  const login = await at("/api/dashboard/login", { method: "POST", json: { email, password } });
  expect(login.status).toBe(200);
  const session = (await login.json()) as { access_token: string; refresh_token: string };
  expect((await at("/api/dashboard/login", { method: "POST", json: { email, password: `${password}x` } })).status).toBe(401);
  const keys = (await (await at("/api/dashboard/keys", { token: session.access_token })).json()) as { data: { id: string }[] };
  const me = (await (await at("/api/dashboard/me", { token: session.access_token })).json()) as { id?: string; user?: { id: string } };
  expect((await at("/api/dashboard/collections/posts/entries?limit=5&filter[title]=topsecretvalue", { token: key })).status).toBe(404);
  expect((await at("/api/dashboard/collections", { token: "pk_" + "0".repeat(64) })).status).toBe(401);
  expect((await at("/api/dashboard/collections", { host: "nowhere.example" })).status).toBe(404);
  const big = await at("/api/dashboard/collections", { method: "POST", token: key, headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }) });
  expect(big.status).toBe(413);
  expect((await at("/api/dashboard/refresh", { method: "POST", json: { refresh_token: session.refresh_token } })).status).toBe(200);
  return { key, keyId: keys.data[0]!.id, password: password!, access: session.access_token, refresh: session.refresh_token, ownerId: me.user?.id ?? me.id ?? "" };
}

/** Output with JSON lines replaced by their `msg` (the banner is one such line in json format). */
function readable(output: string): string {
  return output
    .split("\n")
    .map((l) => (l.startsWith("{") ? String((JSON.parse(l) as { msg?: unknown }).msg ?? l) : l))
    .join("\n");
}

/** The output without the first-run banner, the one place that prints the key and password, once. */
function expectNoSecret(output: string, s: Secrets) {
  const banner = /Created the demo workspace|owner sign-in|API key|curl -s/;
  const text = output.split("\n").filter((l) => !banner.test(l)).join("\n");
  expect(text).toMatch(/\/api\/dashboard\/login/);
  for (const secret of [s.key, s.key.slice(3), s.password, s.access, s.refresh, "topsecretvalue"]) expect(text).not.toContain(secret);
}

describe.skipIf(!builtCli).each(drivers)("svc serve request log on %s", (driver) => {
  const started: { server: Instance; db: TestDatabase }[] = [];
  const serve = async (...args: string[]) => {
    const db = await createTestDatabase(driver);
    const server = await startInstance({ dataDir: db.dataDir, database: db.url, args });
    started.push({ server, db });
    return server;
  };
  afterAll(async () => {
    for (const { server, db } of started) {
      await server.stop();
      await db.cleanup();
    }
  });

  describe("text", () => {
    let server: Instance;
    let secrets: Secrets;
    beforeAll(async () => {
      server = await serve();
      secrets = await exercise(server);
      await server.waitForOutput(/POST localhost \/api\/dashboard\/refresh 200/);
    });

    it("logs every request, failures included, with its fields and no secret", () => {
      const out = server.output();
      expectNoSecret(out, secrets);
      const line = (re: RegExp) => out.split("\n").find((l) => re.test(l));
      expect(line(/^POST localhost \/api\/dashboard\/login 200 [\d.]+ms -$/)).toBeDefined();
      expect(line(/^POST localhost \/api\/dashboard\/login 401 [\d.]+ms -$/)).toBeDefined();
      expect(line(new RegExp(`^GET localhost /api/dashboard/keys 200 [\\d.]+ms member:${secrets.ownerId}$`))).toBeDefined();
      expect(line(new RegExp(`^GET localhost /api/dashboard/collections/posts/entries\\?limit&filter\\[title\\] 404 [\\d.]+ms key:${secrets.keyId}$`))).toBeDefined();
      expect(line(/^GET localhost \/api\/dashboard\/collections 401 [\d.]+ms -$/)).toBeDefined();
      expect(line(/^GET nowhere\.example \/api\/dashboard\/collections 404 [\d.]+ms -$/)).toBeDefined();
      expect(line(/^POST localhost \/api\/dashboard\/collections 413 [\d.]+ms /)).toBeDefined();
    });
  });

  describe("--log-format json", () => {
    let server: Instance;
    let secrets: Secrets;
    beforeAll(async () => {
      server = await serve("--log-format", "json");
      secrets = await exercise(server);
      await server.waitForOutput(/"path":"\/api\/dashboard\/refresh"/);
    });

    it("prints one JSON object per line, requests as fields", () => {
      const out = server.output();
      expectNoSecret(out, secrets);
      // Complete lines only: the last one may still be arriving.
      const complete = out.slice(0, out.lastIndexOf("\n")).split("\n").filter((l) => l !== "");
      const lines = complete.map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          throw new Error(`not a JSON line: ${l}`);
        }
      });
      expect(lines.find((l) => typeof l.msg === "string" && l.msg.includes("listening on"))).toMatchObject({ level: "success" });
      const requests = lines.filter((l) => l.msg === "request");
      expect(requests.length).toBeGreaterThanOrEqual(9);
      for (const r of requests) {
        expect(Object.keys(r).sort()).toEqual(["host", "level", "method", "ms", "msg", "path", "principal", "status", "time"]);
        expect(typeof r.ms).toBe("number");
      }
      expect(requests).toContainEqual(expect.objectContaining({ method: "GET", host: "localhost", path: "/api/dashboard/collections/posts/entries?limit&filter[title]", status: 404, principal: `key:${secrets.keyId}` }));
      expect(requests).toContainEqual(expect.objectContaining({ method: "POST", path: "/api/dashboard/login", status: 401, principal: "-" }));
      expect(requests).toContainEqual(expect.objectContaining({ method: "POST", path: "/api/dashboard/collections", status: 413 }));
    });
  });

  it("--quiet logs no request", async () => {
    const server = await serve("--quiet");
    await exercise(server);
    await new Promise((r) => setTimeout(r, 200));
    const out = server.output();
    expect(out).toContain("listening on");
    expect(out).not.toMatch(/\/api\/dashboard\/login/);
  });

  it("refuses an unknown --log-format", async () => {
    await expect(serve("--log-format", "xml")).rejects.toThrow(/--log-format xml: expected text or json/);
  });
});
