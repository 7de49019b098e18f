/**
 * The dashboard's refresh cookie over real HTTP: opt-in (`X-Dashboard-Session: cookie`) on the
 * dashboard host only, so API callers keep the body form; HttpOnly, SameSite=Strict, host-only,
 * path /api/dashboard/, Secure over HTTPS (X-Forwarded-Proto from a trusted proxy); rotation and
 * reuse detection as for the body form, but the cookie spent last renews within a short grace (its
 * answer was lost); same-origin only (CSRF), the scheme compared only when known; sign-out clears
 * it; it never authenticates an API call. A refused refresh's 401 names why (expired, revoked,
 * reused, removed).
 */
import { H3Event } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFRESH_REUSE_GRACE_MS, REFRESH_TOKEN_TTL_MS } from "../../src/core/lifetimes.js";
import { isHttps, readRefreshCookie, REFRESH_COOKIE } from "../../src/http/dashboard/session-cookie.js";
import { drivers } from "../helpers/database.js";
import { grantPath, PASSWORD, startAccessRig, type AccessRig } from "./helpers.js";

const ADMIN = "admin.demo.localhost";
const ORIGIN = `http://${ADMIN}`;
const COOKIE_MODE = { "x-dashboard-session": "cookie" };
const SAME_ORIGIN = { ...COOKIE_MODE, origin: ORIGIN, "sec-fetch-site": "same-origin" };

/** The cookie's value and attributes from a Set-Cookie header. */
function parseSetCookie(header: string | null) {
  expect(header).not.toBeNull();
  const [pair, ...attrs] = header!.split(/;\s*/);
  const [name, value] = pair!.split("=");
  const map = new Map(attrs.map((a) => [a.split("=")[0]!.toLowerCase(), a.split("=")[1] ?? true] as const));
  return { name, value: value!, attrs: map };
}

describe.each(drivers)("dashboard refresh cookie on %s", (driver) => {
  let rig: AccessRig;
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  beforeAll(async () => {
    rig = await startAccessRig(driver, { now: () => clock, trustProxy: true });
  });
  afterAll(() => rig?.close());

  const member = async () => (await rig.user("member", ["entries:read"])).email;
  const cookieLogin = async (email: string, headers: Record<string, string> = COOKIE_MODE) => {
    const res = await rig.request("/api/dashboard/login", { method: "POST", host: ADMIN, headers, json: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    return { body: await res.json(), cookie: parseSetCookie(res.headers.get("set-cookie")) };
  };
  const cookieRefresh = (token: string, headers: Record<string, string> = SAME_ORIGIN) =>
    rig.request("/api/dashboard/refresh", { method: "POST", host: ADMIN, headers: { ...headers, cookie: `${REFRESH_COOKIE}=${token}` }, json: {} });

  it("API callers are unaffected: the body form answers the whole pair and sets no cookie, on any host", async () => {
    const email = await member();
    for (const host of ["demo.localhost", ADMIN]) {
      const res = await rig.request("/api/dashboard/login", { method: "POST", host, json: { email, password: PASSWORD } });
      expect(res.headers.get("set-cookie")).toBeNull();
      const pair = await res.json();
      expect(Object.keys(pair).sort()).toEqual(["access_token", "expires_in", "refresh_token", "role"]);
      const refreshed = await rig.request("/api/dashboard/refresh", { method: "POST", host, json: { refresh_token: pair.refresh_token } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.headers.get("set-cookie")).toBeNull();
      expect((await refreshed.json()).refresh_token).toMatch(/^dr_/);
    }
  });

  it("login in the cookie form: the refresh token only in an HttpOnly, Strict, host-only cookie on /api/dashboard/", async () => {
    const { body, cookie } = await cookieLogin(await member());
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "role"]);
    expect(body.expires_in).toBe(300);
    expect(cookie.name).toBe(REFRESH_COOKIE);
    expect(cookie.value).toMatch(/^dr_[0-9a-f]{64}$/);
    expect(cookie.attrs.get("httponly")).toBe(true);
    expect(cookie.attrs.get("samesite")).toBe("Strict");
    expect(cookie.attrs.get("path")).toBe("/api/dashboard/");
    expect(cookie.attrs.get("max-age")).toBe(String(REFRESH_TOKEN_TTL_MS / 1000));
    expect(cookie.attrs.has("domain")).toBe(false);
    expect(cookie.attrs.has("secure")).toBe(false);
  });

  it("is Secure when the request came over HTTPS through the trusted proxy", async () => {
    const { cookie } = await cookieLogin(await member(), { ...COOKIE_MODE, "x-forwarded-proto": "https" });
    expect(cookie.attrs.get("secure")).toBe(true);
    const refreshed = await cookieRefresh(cookie.value, { ...SAME_ORIGIN, origin: `https://${ADMIN}`, "x-forwarded-proto": "https" });
    expect(refreshed.status).toBe(200);
    expect(parseSetCookie(refreshed.headers.get("set-cookie")).attrs.get("secure")).toBe(true);
  });

  it("is offered on the dashboard host only: a site host refuses the cookie form", async () => {
    const res = await rig.request("/api/dashboard/login", { method: "POST", headers: COOKIE_MODE, json: { email: await member(), password: PASSWORD } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/dashboard host/);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("refresh by cookie rotates it; the spent cookie presented again after the reuse grace ends the whole sign-in", async () => {
    const { cookie: first } = await cookieLogin(await member());
    const res = await cookieRefresh(first.value);
    expect(res.status).toBe(200);
    const pair = await res.json();
    expect(pair.refresh_token).toBeUndefined();
    const second = parseSetCookie(res.headers.get("set-cookie"));
    expect(second.value).toMatch(/^dr_/);
    expect(second.value).not.toBe(first.value);
    expect((await rig.request(grantPath("entries:read"), { host: ADMIN, token: pair.access_token })).status).toBe(200);

    clock += REFRESH_REUSE_GRACE_MS + 1;
    const replay = await cookieRefresh(first.value);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: "Unauthorized", reason: "reused" });
    const cleared = parseSetCookie(replay.headers.get("set-cookie"));
    expect([cleared.value, cleared.attrs.get("max-age")]).toEqual(["", "0"]);
    // The newest cookie and access token went with the sign-in.
    expect(await (await cookieRefresh(second.value)).json()).toEqual({ error: "Unauthorized", reason: "revoked" });
    expect((await rig.request(grantPath("entries:read"), { host: ADMIN, token: pair.access_token })).status).toBe(401);
  });

  it("the spent cookie presented again within the grace (its answer was lost) renews the sign-in instead of ending it", async () => {
    const { cookie: first } = await cookieLogin(await member());
    const lost = await cookieRefresh(first.value); // committed, but the tab reloaded before the answer landed
    expect(lost.status).toBe(200);
    const lostPair = await lost.json();
    const lostCookie = parseSetCookie(lost.headers.get("set-cookie")).value;

    clock += REFRESH_REUSE_GRACE_MS - 1000;
    const again = await cookieRefresh(first.value);
    expect(again.status).toBe(200);
    const pair = await again.json();
    const renewed = parseSetCookie(again.headers.get("set-cookie")).value;
    expect(renewed).toMatch(/^dr_/);
    expect([first.value, lostCookie]).not.toContain(renewed);
    // Nothing was revoked: both answers' access tokens work, and the new cookie rotates as usual.
    expect((await rig.request(grantPath("entries:read"), { host: ADMIN, token: pair.access_token })).status).toBe(200);
    expect((await rig.request(grantPath("entries:read"), { host: ADMIN, token: lostPair.access_token })).status).toBe(200);
    clock += 1000;
    expect((await cookieRefresh(renewed)).status).toBe(200);
  });

  it("the grace is the cookie's spent last only, and only within it: otherwise reuse still ends the sign-in", async () => {
    // Past the grace.
    const { cookie: late } = await cookieLogin(await member());
    const lateNext = parseSetCookie((await cookieRefresh(late.value)).headers.get("set-cookie")).value;
    clock += REFRESH_REUSE_GRACE_MS + 1;
    expect(await (await cookieRefresh(late.value)).json()).toEqual({ error: "Unauthorized", reason: "reused" });
    expect(await (await cookieRefresh(lateNext)).json()).toEqual({ error: "Unauthorized", reason: "revoked" });

    // Within the grace, but spent earlier in the chain: its successor was spent too, so it is a copy.
    const { cookie: first } = await cookieLogin(await member());
    clock += 1000;
    const second = parseSetCookie((await cookieRefresh(first.value)).headers.get("set-cookie")).value;
    clock += 1000;
    const third = parseSetCookie((await cookieRefresh(second)).headers.get("set-cookie")).value;
    clock += 1000;
    expect(await (await cookieRefresh(first.value)).json()).toEqual({ error: "Unauthorized", reason: "reused" });
    expect(await (await cookieRefresh(third)).json()).toEqual({ error: "Unauthorized", reason: "revoked" });
  });

  it("a refresh token sent in the body gets no grace: presented twice at once it ends the sign-in, in either form", async () => {
    const email = await member();
    const api = await rig.login(email);
    const refreshBody = (token: string, headers: Record<string, string> = {}) =>
      rig.request("/api/dashboard/refresh", { method: "POST", host: ADMIN, headers, json: { refresh_token: token } });
    const next = await (await refreshBody(api.refresh_token)).json();
    expect(await (await refreshBody(api.refresh_token)).json()).toEqual({ error: "Unauthorized", reason: "reused" });
    expect((await refreshBody(next.refresh_token)).status).toBe(401);

    // The cookie form with a body token (which wins over the cookie) is the body's rule too.
    const inCookieMode = await rig.login(email, PASSWORD, ADMIN);
    expect((await refreshBody(inCookieMode.refresh_token, SAME_ORIGIN)).status).toBe(200);
    expect(await (await refreshBody(inCookieMode.refresh_token, SAME_ORIGIN)).json()).toEqual({ error: "Unauthorized", reason: "reused" });
  });

  it("a removed member's cookie, spent within the grace, says member_removed", async () => {
    const owner = await rig.login((await rig.user("owner")).email);
    const m = await rig.user("member", ["entries:read"]);
    const { cookie } = await cookieLogin(m.email);
    expect((await cookieRefresh(cookie.value)).status).toBe(200); // its answer lost
    clock += 1000;
    expect((await rig.request(`/api/dashboard/members/${m.id}`, { method: "DELETE", token: owner.access_token })).status).toBe(200);
    expect(await (await cookieRefresh(cookie.value)).json()).toEqual({ error: "Unauthorized", reason: "member_removed" });
  });

  it("a body token wins over the cookie, and the answer still goes into the cookie", async () => {
    const email = await member();
    const plain = await rig.login(email, PASSWORD, ADMIN);
    const res = await rig.request("/api/dashboard/refresh", { method: "POST", host: ADMIN, headers: SAME_ORIGIN, json: { refresh_token: plain.refresh_token } });
    expect(res.status).toBe(200);
    expect((await res.json()).refresh_token).toBeUndefined();
    expect(parseSetCookie(res.headers.get("set-cookie")).value).toMatch(/^dr_/);
  });

  it("is refused unless the request is same-origin (CSRF): 403 with a clear message, the token untouched", async () => {
    const { cookie } = await cookieLogin(await member());
    for (const headers of [
      { ...COOKIE_MODE, origin: "http://demo.localhost", "sec-fetch-site": "same-site" },
      { ...COOKIE_MODE, origin: "http://evil.example" },
      { ...COOKIE_MODE, "sec-fetch-site": "cross-site" },
      { ...COOKIE_MODE, origin: ORIGIN, "sec-fetch-site": "same-site" },
      COOKIE_MODE,
    ]) {
      const res = await cookieRefresh(cookie.value, headers);
      expect([headers, res.status]).toEqual([headers, 403]);
      expect((await res.json()).error).toMatch(/only from the dashboard's own page/);
    }
    expect((await cookieRefresh(cookie.value, { ...COOKIE_MODE, origin: ORIGIN })).status).toBe(200);
  });

  it("the cookie never authenticates an API call, and without the opt-in header it is not read", async () => {
    const { cookie } = await cookieLogin(await member());
    const jar = `${REFRESH_COOKIE}=${cookie.value}`;
    expect((await rig.request(grantPath("entries:read"), { host: ADMIN, headers: { ...SAME_ORIGIN, cookie: jar } })).status).toBe(401);
    expect((await rig.request("/api/dashboard/me", { host: ADMIN, headers: { ...SAME_ORIGIN, cookie: jar } })).status).toBe(401);
    const noOptIn = await rig.request("/api/dashboard/refresh", { method: "POST", host: ADMIN, headers: { origin: ORIGIN, cookie: jar }, json: {} });
    expect(noOptIn.status).toBe(401);
    expect((await cookieRefresh(cookie.value)).status).toBe(200);
  });

  it("sign-out ends the cookie's sign-in and clears the cookie", async () => {
    const { body, cookie } = await cookieLogin(await member());
    const out = await rig.request("/api/dashboard/logout", {
      method: "POST", host: ADMIN, token: body.access_token, headers: { ...SAME_ORIGIN, cookie: `${REFRESH_COOKIE}=${cookie.value}` }, json: {},
    });
    expect(out.status).toBe(204);
    const cleared = parseSetCookie(out.headers.get("set-cookie"));
    expect([cleared.name, cleared.value, cleared.attrs.get("max-age"), cleared.attrs.get("path")]).toEqual([REFRESH_COOKIE, "", "0", "/api/dashboard/"]);
    expect(await (await cookieRefresh(cookie.value)).json()).toEqual({ error: "Unauthorized", reason: "revoked" });
  });

  it("a refusal says why: missing, expired, removed member; the body form says it too", async () => {
    const missing = await rig.request("/api/dashboard/refresh", { method: "POST", host: ADMIN, headers: SAME_ORIGIN, json: {} });
    expect(await missing.json()).toEqual({ error: "Unauthorized", reason: "missing" });

    const { cookie } = await cookieLogin(await member());
    clock += REFRESH_TOKEN_TTL_MS;
    expect(await (await cookieRefresh(cookie.value)).json()).toEqual({ error: "Unauthorized", reason: "expired" });

    const owner = await rig.login((await rig.user("owner")).email);
    const m = await rig.user("member", ["entries:read"]);
    const viaCookie = (await cookieLogin(m.email)).cookie;
    const viaBody = await rig.login(m.email);
    const del = await rig.request(`/api/dashboard/members/${m.id}`, { method: "DELETE", token: owner.access_token });
    expect(del.status).toBe(200);
    // Removal ends the access tokens at once; the next refresh says why, once.
    expect((await rig.request(grantPath("entries:read"), { token: viaBody.access_token })).status).toBe(401);
    expect(await (await cookieRefresh(viaCookie.value)).json()).toEqual({ error: "Unauthorized", reason: "member_removed" });
    const body = await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: viaBody.refresh_token } });
    expect(await body.json()).toEqual({ error: "Unauthorized", reason: "member_removed" });
    expect(await (await cookieRefresh(viaCookie.value)).json()).toEqual({ error: "Unauthorized", reason: "revoked" });
  });
});

describe.each(drivers)("dashboard refresh cookie behind a TLS-terminating proxy, without trustProxy, on %s", (driver) => {
  let rig: AccessRig;
  beforeAll(async () => {
    rig = await startAccessRig(driver, { trustProxy: false });
  });
  afterAll(() => rig?.close());

  it("accepts Origin https://<dashboard host> over plain HTTP, and still refuses any other host or port", async () => {
    const email = (await rig.user("member", ["entries:read"])).email;
    const login = await rig.request("/api/dashboard/login", { method: "POST", host: ADMIN, headers: COOKIE_MODE, json: { email, password: PASSWORD } });
    let cookie = parseSetCookie(login.headers.get("set-cookie"));
    // Secure needs the service to know it is behind HTTPS, which takes trustProxy.
    expect(cookie.attrs.has("secure")).toBe(false);
    const refresh = (headers: Record<string, string>) =>
      rig.request("/api/dashboard/refresh", { method: "POST", host: ADMIN, headers: { ...COOKIE_MODE, ...headers, cookie: `${REFRESH_COOKIE}=${cookie.value}` }, json: {} });

    for (const origin of [`https://${ADMIN}`, `http://${ADMIN}`]) {
      const res = await refresh({ origin, "sec-fetch-site": "same-origin" });
      expect([origin, res.status]).toEqual([origin, 200]);
      cookie = parseSetCookie(res.headers.get("set-cookie"));
    }
    const refused: Record<string, string>[] = [
      { origin: "https://demo.localhost", "sec-fetch-site": "same-site" },
      { origin: "https://demo.localhost" },
      { origin: "https://evil.example" },
      { origin: `https://${ADMIN}:8443` },
      { origin: `https://${ADMIN}`, "sec-fetch-site": "same-site" },
      { origin: "null" },
    ];
    for (const headers of refused) {
      const res = await refresh(headers);
      expect([headers, res.status]).toEqual([headers, 403]);
    }
  });
});

describe("refresh cookie: scheme and origin checks", () => {
  const event = (url: string, headers: Record<string, string>) => new H3Event(new Request(url, { method: "POST", headers }));

  it("X-Forwarded-Proto counts only from a trusted proxy", () => {
    const proxied = event("http://admin.example.com/api/dashboard/refresh", { "x-forwarded-proto": "https" });
    expect(isHttps(proxied, true)).toBe(true);
    expect(isHttps(proxied, false)).toBe(false);
    expect(isHttps(event("https://admin.example.com/x", {}), false)).toBe(true);
  });

  it("compares Origin with the host the proxy forwarded, when trusted", () => {
    const headers = { origin: "https://admin.example.com", host: "10.0.0.5:3000", "x-forwarded-host": "admin.example.com", "x-forwarded-proto": "https", cookie: `${REFRESH_COOKIE}=dr_x` };
    const proxied = event("http://10.0.0.5:3000/api/dashboard/refresh", headers);
    expect(readRefreshCookie(proxied, true)).toBe("dr_x");
    expect(() => readRefreshCookie(proxied, false)).toThrow(/own page/);
  });

  it("compares the scheme only when it is known: a trusted proxy's or a direct TLS connection's", () => {
    const at = (url: string, origin: string, extra: Record<string, string> = {}) =>
      event(url, { origin, host: new URL(url).host, "sec-fetch-site": "same-origin", cookie: `${REFRESH_COOKIE}=dr_x`, ...extra });
    // Plain HTTP without trustProxy: a TLS-terminating proxy may be in front, so host and port decide.
    expect(readRefreshCookie(at("http://admin.example.com/r", "https://admin.example.com"), false)).toBe("dr_x");
    expect(readRefreshCookie(at("http://admin.example.com:8443/r", "https://admin.example.com:8443"), false)).toBe("dr_x");
    expect(() => readRefreshCookie(at("http://admin.example.com/r", "https://site.example.com"), false)).toThrow(/own page/);
    expect(() => readRefreshCookie(at("http://admin.example.com/r", "https://admin.example.com:8443"), false)).toThrow(/own page/);
    expect(() => readRefreshCookie(at("http://admin.example.com/r", "https://admin.example.com", { "sec-fetch-site": "cross-site" }), false)).toThrow(/own page/);
    // Known: a direct TLS connection, or a trusted proxy (which says https or, by saying nothing, http).
    expect(() => readRefreshCookie(at("https://admin.example.com/r", "http://admin.example.com"), false)).toThrow(/own page/);
    expect(() => readRefreshCookie(at("http://admin.example.com/r", "https://admin.example.com"), true)).toThrow(/own page/);
    expect(readRefreshCookie(at("http://admin.example.com/r", "https://admin.example.com", { "x-forwarded-proto": "https" }), true)).toBe("dr_x");
    expect(() => readRefreshCookie(at("http://admin.example.com/r", "http://admin.example.com", { "x-forwarded-proto": "https" }), true)).toThrow(/own page/);
  });

  it("reads no other host out of a malformed Host header", () => {
    const forged = event("http://admin.example.com/r", { origin: "http://evil.example", host: "admin.example.com@evil.example", cookie: `${REFRESH_COOKIE}=dr_x` });
    expect(() => readRefreshCookie(forged, false)).toThrow(/own page/);
  });
});
