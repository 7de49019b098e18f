/**
 * The per-workspace upload quotas over real HTTP: media assets (`mediaQuota`) and files uploaded
 * with form submissions (`submissionFileQuota`), counted apart. An upload that would pass its quota
 * is refused with 413 naming the limit and stores nothing (no row, no blob); deleting frees the
 * space; another workspace's uploads do not count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { multipart } from "../forms/helpers.js";

const MEDIA_QUOTA = 1000;
const FILE_QUOTA = 2000;

describe.each(drivers)("upload quotas on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let otherOwner: string;
  let wsId: string;
  const blobKeys = async (prefix: string) => (await t.svc.context.blobs.getKeys(`${prefix}:${wsId}`)).length;
  const upload = (bytes: number, token = owner, host = "demo.localhost") =>
    t.request(`/api/dashboard/media?filename=a.bin`, { method: "POST", body: new Uint8Array(bytes).fill(7), token, host, headers: { "content-type": "application/octet-stream" } });
  const submit = async (bytes: number) => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("cv", new File([new Uint8Array(bytes).fill(1)], "cv.bin", { type: "application/octet-stream" }));
    const { body, type } = await multipart(form);
    return t.request("/api/v1/forms/apply/submit", { method: "POST", body, headers: { "content-type": type } });
  };
  const submissions = async () => (await (await t.request("/api/dashboard/forms/apply/submissions", { token: owner })).json()).data as { id: string }[];

  beforeAll(async () => {
    t = await startTestServer(driver, { mediaQuota: MEDIA_QUOTA, submissionFileQuota: FILE_QUOTA });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const other = await t.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    wsId = ws.id;
    owner = await dashboardToken(t.svc.context, ws.id, "owner");
    otherOwner = await dashboardToken(t.svc.context, other.id, "owner");
    const form = { slug: "apply", name: "Apply", fields: [{ name: "name", type: "text" }, { name: "cv", type: "file" }] };
    expect((await t.request("/api/dashboard/forms", { method: "POST", json: form, token: owner })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it("refuses a media upload that would pass mediaQuota with 413 naming it, storing nothing; deleting frees the space", async () => {
    const first = await upload(600);
    expect(first.status).toBe(201);
    const { id } = (await first.json()) as { id: string };
    const refused = await upload(600);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: "This upload would take the workspace's media assets past its quota of 1000 bytes", limit: MEDIA_QUOTA });
    const listed = (await (await t.request("/api/dashboard/media", { token: owner })).json()) as { data: { id: string }[] };
    expect(listed.data.map((m) => m.id)).toEqual([id]);
    expect(await blobKeys("media")).toBe(1);
    // Exactly up to the quota is allowed; another workspace has a quota of its own.
    expect((await upload(400)).status).toBe(201);
    expect((await upload(900, otherOwner, "other.localhost")).status).toBe(201);
    expect((await t.request(`/api/dashboard/media/${id}`, { method: "DELETE", token: owner })).status).toBe(204);
    expect((await upload(600)).status).toBe(201);
  });

  it("refuses a submission whose files would pass submissionFileQuota with 413 naming it, storing nothing; deleting frees the space", async () => {
    const first = await submit(1500);
    expect(first.status).toBe(201);
    const { id } = (await first.json()) as { id: string };
    const refused = await submit(600);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: "This upload would take the workspace's files uploaded with form submissions past its quota of 2000 bytes", limit: FILE_QUOTA });
    expect((await submissions()).map((s) => s.id)).toEqual([id]);
    expect(await blobKeys("submissions")).toBe(1);
    // Media and submission files are counted apart: a full media library does not block visitors.
    expect((await submit(500)).status).toBe(201);
    expect((await t.request(`/api/dashboard/forms/apply/submissions/${id}`, { method: "DELETE", token: owner })).status).toBe(204);
    expect((await submit(1400)).status).toBe(201);
  });

  it("keeps the quota when uploads race: of six concurrent uploads of 400 bytes, two fit in 1000", async () => {
    const listed = (await (await t.request("/api/dashboard/media", { token: owner })).json()) as { data: { id: string }[] };
    for (const m of listed.data) expect((await t.request(`/api/dashboard/media/${m.id}`, { method: "DELETE", token: owner })).status).toBe(204);
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload(400)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 413, 413, 413, 413]);
    const stored = (await (await t.request("/api/dashboard/media", { token: owner })).json()) as { data: { size: number }[] };
    expect(stored.data.map((m) => m.size)).toEqual([400, 400]);
    expect(await blobKeys("media")).toBe(2);
  });
});
