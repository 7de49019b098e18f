/**
 * The site deploy lease on a real database: one holder per workspace, a waiting second taker
 * refused with 409, taken over only after expiry, and a holder that lost it told so at its check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { acquireSiteLease } from "../../src/storage/site-lease.js";

describe.each(drivers)("site deploy lease on %s", (driver) => {
  let t: TestServer;
  let ws: string;
  let other: string;
  beforeAll(async () => {
    t = await startTestServer(driver);
    ws = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    other = (await t.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] })).id;
  });
  afterAll(() => t?.close());

  it("has one holder per workspace; a second taker waits, then gets 409; release frees it", async () => {
    const sql = t.svc.context.sql;
    const first = await acquireSiteLease(sql, ws);
    const elsewhere = await acquireSiteLease(sql, other, { waitMs: 0 });
    await expect(acquireSiteLease(sql, ws, { waitMs: 200 })).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/Another deploy of this site is in progress/) });
    const waiting = acquireSiteLease(sql, ws, { waitMs: 5000 });
    await new Promise((r) => setTimeout(r, 100));
    await first.release();
    const second = await waiting;
    await second.check();
    await second.release();
    await elsewhere.release();
  });

  it("is taken over once expired (a crashed holder), and a holder that lost it fails its check with 409", async () => {
    const sql = t.svc.context.sql;
    // What a process that died mid-deploy leaves behind: a row nobody renews any more.
    await sql.run("INSERT INTO site_leases (workspace_id, token, expires_at) VALUES (?, ?, ?)", [ws, "crashed", Date.now() - 1]);
    const holder = await acquireSiteLease(sql, ws, { waitMs: 0 });
    // Its renewals failing (say the database was unreachable for a minute): the lease expires.
    await sql.run("UPDATE site_leases SET expires_at = 0 WHERE workspace_id = ?", [ws]);
    const taker = await acquireSiteLease(sql, ws, { waitMs: 0 });
    await expect(holder.check()).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/another deploy of the site took over/) });
    await holder.release();
    await taker.check();
    await taker.release();
  });
});
