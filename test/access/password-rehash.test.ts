/**
 * Passwords at OWASP's scrypt cost, and stored hashes with older parameters rehashed at the next
 * successful sign-in, for dashboard members and end-user accounts alike. Real HTTP, both drivers,
 * with the service's default cost (not the fast test cost other suites use).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/core/passwords.js";
import { INSECURE_FAST_SCRYPT } from "../../src/core/scrypt.js";
import { signUp } from "../../src/services/accounts.js";
import { createMember } from "../../src/services/members.js";
import { drivers } from "../helpers/database.js";
import { PASSWORD, startAccessRig, type AccessRig } from "./helpers.js";

const OLD_DEFAULT = { N: 16384, r: 8, p: 1 };
const OWASP_PREFIX = "scrypt$131072$8$1$";

const surfaces = {
  dashboard: { table: "dashboard_users", login: "/api/dashboard/login" },
  account: { table: "end_users", login: "/api/v1/accounts/login" },
} as const;

describe.each(drivers)("password hashing cost and rehash on %s", (driver) => {
  let rig: AccessRig;
  beforeAll(async () => {
    rig = await startAccessRig(driver, { insecureFastPasswordHashing: false });
  });
  afterAll(() => rig?.close());

  const storedHash = async (table: string, email: string) =>
    (await rig.t.svc.context.sql.get<{ password_hash: string }>(`SELECT password_hash FROM ${table} WHERE email = ?`, [email]))!.password_hash;
  const setHash = (table: string, email: string, hash: string) => rig.t.svc.context.sql.run(`UPDATE ${table} SET password_hash = ? WHERE email = ?`, [hash, email]);
  const create = async (surface: keyof typeof surfaces, email: string) => {
    if (surface === "dashboard") await createMember(rig.t.svc.context, rig.wsId, { email, password: PASSWORD, role: "member" });
    else await signUp(rig.t.svc.context, rig.wsId, { email, password: PASSWORD });
  };

  it.each(Object.keys(surfaces) as (keyof typeof surfaces)[])("%s: new passwords are hashed at N=2^17, r=8, p=1", async (surface) => {
    const email = `fresh-${surface}@example.com`;
    await create(surface, email);
    expect(await storedHash(surfaces[surface].table, email)).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it.each(Object.keys(surfaces) as (keyof typeof surfaces)[])(
    "%s: a hash with the old parameters is rehashed at the next successful sign-in, not at a failed one",
    async (surface) => {
      const { table, login } = surfaces[surface];
      const email = `old-${surface}@example.com`;
      await create(surface, email);
      const old = await hashPassword(PASSWORD, OLD_DEFAULT);
      await setHash(table, email, old);

      const failed = await rig.request(login, { method: "POST", json: { email, password: "wrong password!" } });
      expect(failed.status).toBe(401);
      expect(await storedHash(table, email)).toBe(old);

      expect((await rig.request(login, { method: "POST", json: { email, password: PASSWORD } })).status).toBe(200);
      const upgraded = await storedHash(table, email);
      expect(upgraded.startsWith(OWASP_PREFIX)).toBe(true);
      expect(await verifyPassword(PASSWORD, upgraded)).toBe(true);
      expect(await verifyPassword("wrong password!", upgraded)).toBe(false);

      // Signing in again works against the new hash and leaves it alone.
      expect((await rig.request(login, { method: "POST", json: { email, password: PASSWORD } })).status).toBe(200);
      expect(await storedHash(table, email)).toBe(upgraded);
    },
  );

  it("a hash made at the fast test cost is raised too, once the service runs the default", async () => {
    const email = "fast@example.com";
    await create("dashboard", email);
    await setHash("dashboard_users", email, await hashPassword(PASSWORD, INSECURE_FAST_SCRYPT));
    expect((await rig.request(surfaces.dashboard.login, { method: "POST", json: { email, password: PASSWORD } })).status).toBe(200);
    expect((await storedHash("dashboard_users", email)).startsWith(OWASP_PREFIX)).toBe(true);
  });

  it("a deactivated end user's old hash is not touched (no successful sign-in)", async () => {
    const email = "inactive@example.com";
    await create("account", email);
    const old = await hashPassword(PASSWORD, OLD_DEFAULT);
    await setHash("end_users", email, old);
    await rig.t.svc.context.sql.run("UPDATE end_users SET active = 0 WHERE email = ?", [email]);
    expect((await rig.request(surfaces.account.login, { method: "POST", json: { email, password: PASSWORD } })).status).toBe(401);
    expect(await storedHash("end_users", email)).toBe(old);
  });
});

describe.each(drivers)("a service running the fast test cost on %s", (driver) => {
  let rig: AccessRig;
  beforeAll(async () => {
    rig = await startAccessRig(driver, { insecureFastPasswordHashing: true });
  });
  afterAll(() => rig?.close());

  it("hashes new passwords at N=2^10 and never downgrades a stronger hash", async () => {
    await createMember(rig.t.svc.context, rig.wsId, { email: "quick@example.com", password: PASSWORD, role: "member" });
    const sql = rig.t.svc.context.sql;
    const hashOf = async () => (await sql.get<{ password_hash: string }>("SELECT password_hash FROM dashboard_users WHERE email = ?", ["quick@example.com"]))!.password_hash;
    expect(await hashOf()).toMatch(/^scrypt\$1024\$8\$1\$/);
    const strong = await hashPassword(PASSWORD);
    await sql.run("UPDATE dashboard_users SET password_hash = ? WHERE email = ?", [strong, "quick@example.com"]);
    expect((await rig.request("/api/dashboard/login", { method: "POST", json: { email: "quick@example.com", password: PASSWORD } })).status).toBe(200);
    expect(await hashOf()).toBe(strong);
  });
});
