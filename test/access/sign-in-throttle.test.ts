/**
 * Sign-in throttling over real HTTP (dashboard and account logins): failed attempts counted per
 * account + client address and per address, a success resets its count, progressive back-off on
 * an injected clock, the client address from the socket (X-Forwarded-For only with trustProxy),
 * and the counts shared through Redis by two instances.
 */
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, type ServiceOptions } from "../../src/service.js";
import { DEFAULT_SIGN_IN_LIMITS } from "../../src/core/sign-in-limits.js";
import { signUp } from "../../src/services/accounts.js";
import { createMember } from "../../src/services/members.js";
import { drivers, REDIS_URL } from "../helpers/database.js";
import { silentLogger, startTestServer, type TestServer } from "../helpers/server.js";
import { PASSWORD, startAccessRig, type AccessRig } from "./helpers.js";

const LOGIN = { dashboard: "/api/dashboard/login", account: "/api/v1/accounts/login" } as const;
type Surface = keyof typeof LOGIN;
const SURFACES: Surface[] = ["dashboard", "account"];
const { accountFailures, addressFailures, windowMs } = DEFAULT_SIGN_IN_LIMITS;

let seq = 0;
/** A user of `surface` with PASSWORD, created straight in storage. */
async function createUser(ctx: TestServer["svc"]["context"], workspaceId: string, surface: Surface): Promise<string> {
  const email = `throttle${++seq}-${randomBytes(3).toString("hex")}@example.com`;
  if (surface === "dashboard") await createMember(ctx, workspaceId, { email, password: PASSWORD, role: "member" });
  else await signUp(ctx, workspaceId, { email, password: PASSWORD });
  return email;
}

describe.each(drivers)("sign-in throttling on %s", (driver) => {
  let rig: AccessRig;
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  beforeAll(async () => {
    rig = await startAccessRig(driver, { now: () => clock });
  });
  afterAll(() => rig?.close());

  // Each test signs in from loopback addresses of its own (127.0.0.0/8 is all loopback on Linux).
  let octet = 10;
  const nextAddress = () => `127.0.0.${++octet}`;
  const signIn = (surface: Surface, email: string, password: string, localAddress: string, headers?: Record<string, string>) =>
    rig.request(LOGIN[surface], { method: "POST", json: { email, password }, localAddress, headers });
  const wrong = "wrong password!";

  it.each(SURFACES)("%s: 30 correct sign-ins in a row all succeed", async (surface) => {
    const email = await createUser(rig.t.svc.context, rig.wsId, surface);
    const from = nextAddress();
    for (let i = 0; i < 30; i++) expect([i, (await signIn(surface, email, PASSWORD, from)).status]).toEqual([i, 200]);
  });

  it.each(SURFACES)("%s: 12 wrong passwords from one address → 429 there; the right password from another address still succeeds", async (surface) => {
    const email = await createUser(rig.t.svc.context, rig.wsId, surface);
    const [attacker, owner] = [nextAddress(), nextAddress()];
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(surface, email, wrong, attacker)).status);
    expect(statuses).toEqual([...Array(accountFailures).fill(401), 429, 429]);
    const refused = await signIn(surface, email, PASSWORD, attacker);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ error: "Too many failed sign-in attempts; try again in 1 second", retry_after: 1 });
    expect((await signIn(surface, email, PASSWORD, owner)).status).toBe(200);
  });

  it("back-off doubles with each further failure up to the cap, and failures are forgotten after the window", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    const from = nextAddress();
    for (let i = 0; i < accountFailures; i++) expect((await signIn("dashboard", email, wrong, from)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const refused = await signIn("dashboard", email, wrong, from);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      waits.push(wait);
      clock += wait * 1000 - 1;
      expect((await signIn("dashboard", email, wrong, from)).status).toBe(429); // one ms early
      clock += 1;
      expect((await signIn("dashboard", email, wrong, from)).status).toBe(401); // counted: the next wait doubles
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    // Refused attempts are not counted: still 900 s, not more, after a flood of them.
    for (let i = 0; i < 20; i++) await signIn("dashboard", email, wrong, from);
    expect((await signIn("dashboard", email, PASSWORD, from)).headers.get("retry-after")).toBe("900");
    // An hour after the last failure they are forgotten: a fresh allowance of free failures.
    clock += windowMs;
    for (let i = 0; i < accountFailures; i++) expect((await signIn("dashboard", email, wrong, from)).status).toBe(401);
    expect((await signIn("dashboard", email, wrong, from)).status).toBe(429);
  });

  it("a success resets the account + address count; refused attempts never reach the password check", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "account");
    const from = nextAddress();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < accountFailures; i++) expect((await signIn("account", email, wrong, from)).status).toBe(401);
      const refused = await signIn("account", email, PASSWORD, from);
      expect(refused.status).toBe(429);
      clock += Number(refused.headers.get("retry-after")) * 1000;
      expect((await signIn("account", email, PASSWORD, from)).status).toBe(200);
    }
  });

  it("a burst of parallel guesses is counted before the first verdict: only the free failures get a password check", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    const from = nextAddress();
    const statuses = await Promise.all(Array.from({ length: 40 }, () => signIn("dashboard", email, wrong, from).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(accountFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - accountFailures);
  });

  it("one address is capped across accounts (password spraying); other addresses are not", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    const [sprayer, other] = [nextAddress(), nextAddress()];
    for (let i = 0; i < addressFailures; i++) {
      const res = await signIn(i % 2 ? "dashboard" : "account", `spray${i}@example.com`, wrong, sprayer);
      expect([i, res.status]).toEqual([i, 401]);
    }
    const refused = await signIn("dashboard", email, PASSWORD, sprayer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect((await signIn("dashboard", email, PASSWORD, other)).status).toBe(200);
  });

  it("the client address is the socket peer: X-Forwarded-For is ignored without trustProxy", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    const from = nextAddress();
    const spoof = (i: number) => ({ "x-forwarded-for": `198.51.100.${i}` });
    for (let i = 0; i < accountFailures; i++) expect((await signIn("dashboard", email, wrong, from, spoof(i))).status).toBe(401);
    expect((await signIn("dashboard", email, PASSWORD, from, spoof(99))).status).toBe(429);
  });

  it("signups count like failed sign-ins and never reset the count", async () => {
    const from = nextAddress();
    const email = `signup-${randomBytes(3).toString("hex")}@example.com`;
    const signup = () => rig.request("/api/v1/accounts/signup", { method: "POST", json: { email, password: PASSWORD }, localAddress: from });
    const statuses = [];
    for (let i = 0; i < accountFailures + 1; i++) statuses.push((await signup()).status);
    expect(statuses).toEqual([201, ...Array(accountFailures - 1).fill(409), 429]);
    expect((await signIn("account", email, PASSWORD, from)).status).toBe(429);
    expect((await signIn("account", email, PASSWORD, nextAddress())).status).toBe(200);
  });
});

describe.each(drivers)("the client address behind a trusted proxy on %s", (driver) => {
  let rig: AccessRig;
  beforeAll(async () => {
    // A still clock: back-offs last until the assertions are done, however slow the machine.
    const still = Date.parse("2030-01-01T00:00:00.000Z");
    rig = await startAccessRig(driver, { trustProxy: true, now: () => still });
  });
  afterAll(() => rig?.close());

  const signIn = (email: string, password: string, forwardedFor: string) =>
    rig.request(LOGIN.dashboard, { method: "POST", json: { email, password }, headers: { "x-forwarded-for": forwardedFor } });

  it("is the right-most X-Forwarded-For entry, the one the proxy appended", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    for (let i = 0; i < accountFailures; i++) expect((await signIn(email, "wrong password!", `10.0.${i}.1, 203.0.113.7`)).status).toBe(401);
    // Entries the client wrote to the left do not make it someone else.
    expect((await signIn(email, PASSWORD, "192.0.2.1, 203.0.113.7")).status).toBe(429);
    expect((await signIn(email, PASSWORD, "203.0.113.7")).status).toBe(429);
    expect((await signIn(email, PASSWORD, "203.0.113.8")).status).toBe(200);
  });

  it("counts IPv6 clients per /64 and IPv4-mapped IPv6 as the IPv4 address", async () => {
    const email = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    for (let i = 0; i < accountFailures; i++) expect((await signIn(email, "wrong password!", `2001:db8:1:2::${i + 1}`)).status).toBe(401);
    expect((await signIn(email, PASSWORD, "2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await signIn(email, PASSWORD, "2001:db8:1:3::1")).status).toBe(200);

    const other = await createUser(rig.t.svc.context, rig.wsId, "dashboard");
    for (let i = 0; i < accountFailures; i++) expect((await signIn(other, "wrong password!", "198.51.100.20")).status).toBe(401);
    expect((await signIn(other, PASSWORD, "::ffff:198.51.100.20")).status).toBe(429);
  });
});

describe("the client address of a bare web Request (svc.fetch, as Bun.serve and Deno.serve call it)", () => {
  let t: TestServer;
  let workspaceId: string;
  beforeAll(async () => {
    const still = Date.parse("2030-01-01T00:00:00.000Z");
    t = await startTestServer(drivers[0], { now: () => still });
    workspaceId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
  });
  afterAll(() => t?.close());

  const bun = (address: string) => ({ requestIP: () => ({ address, family: "IPv4", port: 1234 }) });
  const deno = (hostname: string) => ({ remoteAddr: { transport: "tcp", hostname, port: 1234 } });
  const signIn = (email: string, password: string, runtime?: unknown) =>
    t.svc.fetch(
      new Request("http://demo.localhost/api/dashboard/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) }),
      runtime,
    );

  it("comes from the runtime's second handler argument: Bun's server.requestIP() or Deno's info.remoteAddr", async () => {
    const email = await createUser(t.svc.context, workspaceId, "dashboard");
    for (let i = 0; i < accountFailures; i++) expect((await signIn(email, "wrong password!", bun("198.51.100.30"))).status).toBe(401);
    expect((await signIn(email, PASSWORD, bun("198.51.100.30"))).status).toBe(429);
    expect((await signIn(email, PASSWORD, deno("198.51.100.30"))).status).toBe(429);
    expect((await signIn(email, PASSWORD, deno("198.51.100.31"))).status).toBe(200);
    expect((await signIn(email, PASSWORD, bun("198.51.100.32"))).status).toBe(200);
  });

  it("without one, every such request shares the address \"unknown\"", async () => {
    const email = await createUser(t.svc.context, workspaceId, "dashboard");
    for (let i = 0; i < accountFailures; i++) expect((await signIn(email, "wrong password!")).status).toBe(401);
    expect((await signIn(email, PASSWORD)).status).toBe(429);
    expect((await signIn(email, PASSWORD, bun("198.51.100.33"))).status).toBe(200);
  });
});

describe.runIf(REDIS_URL)("sign-in throttling shared through Redis by two instances", () => {
  let a: TestServer;
  let b: TestServer;
  let workspaceId: string;
  beforeAll(async () => {
    // Redis keeps real time: a minute-long first back-off outlasts the assertions.
    const options = { redis: REDIS_URL, trustProxy: true, signInLimits: { backoffMs: 60_000 } };
    a = await startTestServer("sqlite", options);
    // B: another service on A's database and the same Redis, as a second instance would be.
    b = await startTestServer("sqlite", { ...options, database: a.db.url, dataDir: a.db.dataDir });
    workspaceId = (await a.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("failures on A and B add up; the back-off holds on both; another address signs in on either", async () => {
    const email = await createUser(a.svc.context, workspaceId, "dashboard");
    // Addresses of this run only: Redis is shared with every other run.
    const [attacker, owner] = [0, 1].map(() => `10.${[0, 0, 0].map(() => 1 + Math.floor(Math.random() * 250)).join(".")}`);
    const signIn = (x: TestServer, password: string, address: string) =>
      x.request(LOGIN.dashboard, { method: "POST", json: { email, password }, headers: { "x-forwarded-for": address } });
    for (let i = 0; i < accountFailures; i++) expect((await signIn(i % 2 ? a : b, "wrong password!", attacker)).status).toBe(401);
    const refused = await signIn(a, PASSWORD, attacker);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signIn(b, PASSWORD, attacker)).status).toBe(429);
    expect((await signIn(b, PASSWORD, owner)).status).toBe(200);
    expect((await signIn(a, PASSWORD, owner)).status).toBe(200);
  });
});

describe("sign-in limits are options", () => {
  it("are validated when the service is created, naming the bad field", async () => {
    for (const [signInLimits, message] of [
      [{ accountFailures: 0 }, /signInLimits\.accountFailures must be a positive integer/],
      [{ maxBackoffMs: 10_000, windowMs: 5_000 }, /signInLimits\.windowMs must be at least maxBackoffMs/],
      [{ backoff: 5 }, /signInLimits\.backoff is not a setting/],
    ] as [Record<string, number>, RegExp][]) {
      const options = { dataDir: tmpdir(), database: ":memory:", blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() };
      // As an embedder's untyped config would pass them.
      await expect(createService({ ...options, signInLimits: signInLimits as ServiceOptions["signInLimits"] })).rejects.toThrow(message);
    }
  });

  it("take effect: a lower accountFailures refuses sooner", async () => {
    const t = await startTestServer(drivers[0], { signInLimits: { accountFailures: 3 } });
    try {
      const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
      const email = await createUser(t.svc.context, ws.id, "dashboard");
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.request(LOGIN.dashboard, { method: "POST", json: { email, password: "wrong password!" } })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await t.close();
    }
  });
});
