/**
 * Deploy archive safety and access over real HTTP: `../x`, absolute paths, links and devices are
 * refused naming the entry; size and count caps; a refused deploy changes nothing; sites grants.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { deploySite } from "../../src/services/sites.js";
import { packSite, rawTar, type RawEntry } from "./fixtures.js";

const LIMIT = 4096;

describe.each(drivers)("site deploy safety on %s", (driver) => {
  let s: ServerScenario;
  let wsId: string;
  let owner: string;
  const deploy = (body: Uint8Array, token = owner, type = "application/gzip") =>
    s.as(token).post("/api/dashboard/site/deploys", undefined, { body: body as BodyInit, headers: { "content-type": type } });
  const siteKeys = async () => (await s.svc.context.blobs.getKeys("site")).length;

  beforeAll(async () => {
    s = await scenario(driver, { uploadLimit: LIMIT });
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(s.svc.context, wsId, "owner");
    expect((await deploy(await packSite({ "index.html": "<p>good</p>" }))).status).toBe(201);
  });
  afterAll(() => s?.close());

  it.each<[string, RawEntry[], string, RegExp]>([
    ["a ../x entry", [{ path: "index.html", body: "ok" }, { path: "../x", body: "evil" }], "../x", /'\.\.' segments/],
    ["a nested a/../../x entry", [{ path: "a/../../x", body: "evil" }], "a/../../x", /'\.\.' segments/],
    ["an absolute path", [{ path: "/etc/cron.d/x", body: "evil" }], "/etc/cron.d/x", /absolute/],
    ["a symbolic link", [{ path: "link", type: "SymbolicLink", linkpath: "/etc/passwd" }], "link", /symbolic links/],
    ["a hard link", [{ path: "hard", type: "Link", linkpath: "index.html" }], "hard", /hard links/],
    ["a character device", [{ path: "dev", type: "CharacterDevice" }], "dev", /device/],
    ["a FIFO", [{ path: "fifo", type: "FIFO" }], "fifo", /FIFO/],
    ["a backslash path", [{ path: "..\\x", body: "evil" }], "..\\x", /backslashes/],
  ])("refuses %s with 400 naming the entry, and changes nothing", async (_name, entries, entry, why) => {
    const before = await siteKeys();
    const res = await deploy(rawTar(entries));
    expect(res.status).toBe(400);
    const body = res.body;
    expect(body.entry).toBe(entry);
    expect(body.error).toContain(JSON.stringify(entry));
    expect(body.error).toMatch(why);
    expect(await siteKeys()).toBe(before);
    expect((await s.get("/")).text).toBe("<p>good</p>");
  });

  it("accepts directories and a plain (uncompressed) tar", async () => {
    const res = await deploy(rawTar([{ path: "docs/", type: "Directory" }, { path: "./docs/index.html", body: "docs" }], false), owner, "application/x-tar");
    expect([res.status, res.body.file_count]).toEqual([201, 1]);
    expect((await s.get("/docs/")).text).toBe("docs");
  });

  it("accepts long paths written with PAX headers by tar", async () => {
    const long = `${"deep/".repeat(30)}page.html`;
    const res = await deploy(await packSite({ [long]: "deep" }));
    expect(res.status).toBe(201);
    expect((await s.get(`/${long}`)).text).toBe("deep");
  });

  it("serves files named __proto__ and constructor like any other", async () => {
    const res = await deploy(rawTar([{ path: "index.html", body: "home" }, { path: "__proto__", body: "proto" }, { path: "constructor", body: "ctor" }]));
    expect(res.status).toBe(201);
    expect((await s.get("/__proto__")).text).toBe("proto");
    expect((await s.get("/constructor")).text).toBe("ctor");
  });

  it.each([
    ["not gzip, not tar", new TextEncoder().encode("hello, this is not an archive at all"), 400],
    ["a gzip of garbage", rawTar([]).subarray(0, 10), 400],
    ["an archive with only directories", rawTar([{ path: "empty/", type: "Directory" }]), 400],
  ])("refuses %s", async (_name, body, status) => {
    expect((await deploy(body)).status).toBe(status);
  });

  it("refuses other content types with 415 and an empty body with 400", async () => {
    expect((await deploy(rawTar([{ path: "a.html", body: "a" }]), owner, "application/json")).status).toBe(415);
    expect((await deploy(new Uint8Array(0))).status).toBe(400);
  });

  it("caps the upload (413), the expanded total (413), each file and the entry count", async () => {
    const live = async () => (await s.svc.context.sql.get<{ deploy_id: string }>("SELECT deploy_id FROM site_live WHERE workspace_id = ?", [wsId]))?.deploy_id;
    const before = await live();
    const noisy = new Uint8Array(LIMIT + 100).map((_, i) => (i * 7919) % 251);
    const over = await deploy(noisy);
    expect(over.status).toBe(413);
    const bomb = rawTar([{ path: "zeros.txt", body: "0".repeat(LIMIT + 1) }]);
    expect(bomb.byteLength).toBeLessThan(LIMIT);
    const res = await deploy(bomb);
    expect(res.status).toBe(413);
    expect(res.body.limit).toBe(LIMIT);
    const two = rawTar([{ path: "a.txt", body: "x".repeat(3000) }, { path: "b.txt", body: "y".repeat(3000) }]);
    expect((await deploy(two)).status).toBe(413);
    const ctx = s.svc.context;
    await expect(deploySite(ctx, wsId, rawTar([{ path: "big.txt", body: "x".repeat(11) }]), { maxFileBytes: 10 })).rejects.toMatchObject({ status: 413, details: { entry: "big.txt" } });
    await expect(deploySite(ctx, wsId, rawTar([{ path: "a" }, { path: "b" }, { path: "c" }]), { maxEntries: 2 })).rejects.toMatchObject({ status: 413 });
    expect(await live()).toBe(before);
  });

  it.each<[string, string[], "list" | "deploy" | "rollback", number, string | undefined]>([
    ["no grants cannot list", [], "list", 403, "sites:read"],
    ["sites:read lists", ["sites:read"], "list", 200, undefined],
    ["sites:read cannot deploy", ["sites:read"], "deploy", 403, "sites:write"],
    ["sites:read cannot roll back", ["sites:read"], "rollback", 403, "sites:write"],
    ["sites:write deploys", ["sites:write"], "deploy", 201, undefined],
    ["sites:write lists (write implies read)", ["sites:write"], "list", 200, undefined],
    ["sites:write rolls back", ["sites:write"], "rollback", 200, undefined],
    ["media:write cannot deploy", ["media:write"], "deploy", 403, "sites:write"],
  ])("key: %s", async (_name, grants, op, status, missing) => {
    const key = await apiKey(s.svc.context, wsId, grants);
    const res =
      op === "list"
        ? await s.as(key).get("/api/dashboard/site/deploys")
        : op === "deploy"
          ? await deploy(await packSite({ "index.html": "<p>good</p>" }), key)
          : await s.as(key).post("/api/dashboard/site/rollback", {});
    expect(res.status).toBe(status);
    if (missing) expect(res.body).toEqual({ error: `Missing grant: ${missing}`, grant: missing });
  });

  it("checks members like keys and answers 401 without a credential", async () => {
    const member = await dashboardToken(s.svc.context, wsId, "member", ["sites:read"]);
    (await s.as(member).get("/api/dashboard/site/deploys")).expectStatus(200);
    expect((await deploy(rawTar([{ path: "a.html", body: "a" }]), member)).status).toBe(403);
    expect(await s.get("/api/dashboard/site/deploys")).toEqual({ status: 401, body: { error: "Unauthorized" } });
  });
});
