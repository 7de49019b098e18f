/**
 * spec 2.1, 8: last_used_at is written at most once per minute per key, whatever the load — and
 * without a write per request. UPDATEs on api_keys are counted through the SQL seam, with an
 * injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { grantPath, startAccessRig, type AccessRig } from "./helpers.js";

describe.each(drivers)("last_used_at throttling on %s", (driver) => {
  let rig: AccessRig;
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  let updates = 0;
  beforeAll(async () => {
    rig = await startAccessRig(driver, { now: () => clock });
    const sql = rig.t.svc.context.sql;
    const run = sql.run.bind(sql);
    // Count every UPDATE of last_used_at issued by the service (not only those that change a row).
    (sql as { run: typeof sql.run }).run = (s, p) => {
      if (/UPDATE api_keys SET last_used_at/.test(s)) updates++;
      return run(s, p);
    };
  });
  afterAll(() => rig?.close());

  const lastUsed = async (key: string) => {
    const { hashToken } = await import("../../src/core/keys.js");
    const row = await rig.t.svc.context.sql.get<{ last_used_at: string | null }>("SELECT last_used_at FROM api_keys WHERE key_hash = ?", [hashToken(key)]);
    return row?.last_used_at ?? null;
  };
  const settle = () => new Promise((r) => setTimeout(r, 50));

  it("2,000 concurrent-ish requests within a minute write once; the next minute writes once more", async () => {
    const key = await rig.key(["entries:read"]);
    const keyB = await rig.key(["entries:read"]);
    expect(await lastUsed(key)).toBeNull();
    updates = 0;
    const burst = async (n: number, token: string) => {
      for (let i = 0; i < n; i += 100) {
        const batch = Array.from({ length: Math.min(100, n - i) }, () => rig.request(grantPath("entries:read"), { token }));
        const statuses = await Promise.all(batch.map(async (r) => (await r).status));
        expect(new Set(statuses)).toEqual(new Set([200]));
        clock += 10; // time moves, still within the minute
      }
    };
    const start = clock;
    await burst(2000, key);
    await settle();
    expect(updates).toBe(1);
    expect(await lastUsed(key)).toBe(new Date(start).toISOString());

    // Another key is throttled on its own.
    await burst(100, keyB);
    await settle();
    expect(updates).toBe(2);

    // Still inside the minute for key: nothing.
    clock = start + 59_000;
    await burst(200, key);
    await settle();
    expect(updates).toBe(2);

    // A minute later: exactly one more write, then quiet again.
    clock = start + 60_001;
    await burst(500, key);
    await settle();
    expect(updates).toBe(3);
    expect(Date.parse((await lastUsed(key))!)).toBeGreaterThanOrEqual(start + 60_001);
  });

  it("the stored last_used_at alone stops writes across a restart of the shared state", async () => {
    const key = await rig.key([]);
    await rig.request("/api/test/key", { token: key });
    await settle();
    const first = await lastUsed(key);
    expect(first).not.toBeNull();
    updates = 0;
    // Forget every claim (as a restarted instance without Redis would).
    const shared = rig.t.svc.context.shared;
    const claim = shared.claim.bind(shared);
    shared.claim = async () => true;
    try {
      for (let i = 0; i < 50; i++) expect((await rig.request("/api/test/key", { token: key })).status).toBe(200);
      await settle();
      expect(updates).toBe(0);
      expect(await lastUsed(key)).toBe(first);
    } finally {
      shared.claim = claim;
    }
  });

  it("two instances that share no state still change last_used_at once a minute (the UPDATE is conditional)", async () => {
    const { createService } = await import("../../src/service.js");
    const { silentLogger } = await import("../helpers/server.js");
    const second = await createService({ dataDir: rig.t.db.dataDir, database: rig.t.db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger(), now: () => clock });
    try {
      const key = await rig.key(["entries:read"]);
      let changed = 0;
      for (const sql of [rig.t.svc.context.sql, second.context.sql]) {
        const run = sql.run.bind(sql);
        (sql as { run: typeof sql.run }).run = async (s, p) => {
          const r = await run(s, p);
          if (/UPDATE api_keys SET last_used_at/.test(s)) changed += r.changes;
          return r;
        };
      }
      clock += 120_000;
      const start = clock;
      for (let i = 0; i < 20; i++) {
        expect((await rig.request(grantPath("entries:read"), { token: key })).status).toBe(200);
        // The second instance mounts only allRoutes; an owner-only route still authenticates the key first.
        const k = await second.fetch(new Request("http://demo.localhost/api/dashboard/keys", { headers: { authorization: `Bearer ${key}` } }));
        expect(k.status).toBe(403); // authenticated (owner-only refuses keys), so last_used_at logic ran
        clock += 1000;
        await settle();
      }
      expect(changed).toBe(1);
      expect(await lastUsed(key)).toBe(new Date(start).toISOString());
    } finally {
      await second.close();
    }
  });

  it("the list shows last_used_at (CLI and owner API read the same column)", async () => {
    const key = await rig.key(["media:read"]);
    await rig.request(grantPath("media:read"), { token: key });
    await settle();
    const list = await rig.t.svc.context.db.apiKeys.list(rig.wsId);
    expect(list.some((k) => k.last_used_at === new Date(clock).toISOString())).toBe(true);
  });
});
