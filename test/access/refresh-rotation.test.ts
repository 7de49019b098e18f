/**
 * Refresh-token rotation with reuse detection over real HTTP (OAuth 2.0 security BCP): each
 * refresh spends its token and answers a new one of the same sign-in; a spent token presented
 * again revokes every token of that sign-in (refresh and access), with a log line that never
 * holds a token; two concurrent refreshes with one token never leave two working pairs.
 */
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { grantPath, startAccessRig, type AccessRig } from "./helpers.js";

type Pair = { access_token: string; refresh_token: string };

describe.each(drivers)("refresh token rotation on %s", (driver) => {
  let rig: AccessRig;
  const logs: string[] = [];
  beforeAll(async () => {
    const logger = createConsola({ level: 5, reporters: [{ log: (entry) => void logs.push(JSON.stringify(entry.args)) }] });
    rig = await startAccessRig(driver, { logger });
  });
  afterAll(() => rig?.close());

  const refresh = (refresh_token: string) => rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token } });
  const works = async (pair: Pair) => (await rig.request(grantPath("entries:read"), { token: pair.access_token })).status;
  const member = async () => rig.login((await rig.user("member", ["entries:read"])).email);

  it("each refresh answers a new refresh token that works once", async () => {
    const first = await member();
    const res = await refresh(first.refresh_token);
    expect(res.status).toBe(200);
    const second: Pair = await res.json();
    expect(second.refresh_token).toMatch(/^dr_[0-9a-f]{64}$/);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const third = await refresh(second.refresh_token);
    expect(third.status).toBe(200);
    expect(await works(await third.json())).toBe(200);
  });

  it("a used token presented again is 401 and revokes the whole sign-in: the newest refresh and access tokens too", async () => {
    const first = await member();
    const second: Pair = await (await refresh(first.refresh_token)).json();
    const third: Pair = await (await refresh(second.refresh_token)).json();
    expect(await works(third)).toBe(200);
    logs.length = 0;

    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: "Unauthorized", reason: "reused" });
    expect((await refresh(third.refresh_token)).status).toBe(401);
    expect(await works(third)).toBe(401);
    expect(await works(first)).toBe(401);

    const line = logs.find((l) => l.includes("refresh token used twice"));
    expect(line).toBeDefined();
    for (const token of [first, second, third].flatMap((p) => [p.access_token, p.refresh_token])) expect(line).not.toContain(token.slice(3));
  });

  it("a replay revokes only its own sign-in: the same user's other sign-in keeps working", async () => {
    const m = await rig.user("member", ["entries:read"]);
    const laptop = await rig.login(m.email);
    const phone = await rig.login(m.email);
    await refresh(laptop.refresh_token);
    expect((await refresh(laptop.refresh_token)).status).toBe(401);
    expect(await works(phone)).toBe(200);
    expect((await refresh(phone.refresh_token)).status).toBe(200);
  });

  it("two concurrent refreshes with one token never leave two working pairs", async () => {
    for (let round = 0; round < 5; round++) {
      const pair = await member();
      const answers = await Promise.all([refresh(pair.refresh_token), refresh(pair.refresh_token)]);
      const pairs: Pair[] = await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.json()));
      expect(answers.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(1);
      let alive = 0;
      for (const p of pairs) if ((await works(p)) === 200 && (await refresh(p.refresh_token)).status === 200) alive++;
      expect(alive).toBe(0);
    }
  });

  it("sign-out ends the sign-in: its access token, its refresh token and the tokens it rotated from", async () => {
    const first = await member();
    const second: Pair = await (await refresh(first.refresh_token)).json();
    const out = await rig.request("/api/dashboard/logout", { method: "POST", token: second.access_token, json: { refresh_token: second.refresh_token } });
    expect(out.status).toBe(204);
    expect(await works(second)).toBe(401);
    expect(await works(first)).toBe(401);
    expect((await refresh(second.refresh_token)).status).toBe(401);
  });
});
