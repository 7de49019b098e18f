/**
 * The per-workspace upload quotas over real HTTP: media assets (`mediaQuota`) and files uploaded
 * with form submissions (`submissionFileQuota`), counted apart. An upload that would pass its quota
 * is refused with 413 naming the limit and stores nothing (no row, no blob); deleting frees the
 * space; another workspace's uploads do not count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";
import { multipart } from "../forms/helpers.js";

const MEDIA_QUOTA = 1000;
const FILE_QUOTA = 2000;

describe.each(drivers)("upload quotas on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let otherOwner: Caller;
  let wsId: string;
  const blobKeys = async (prefix: string) => (await s.svc.context.blobs.getKeys(`${prefix}:${wsId}`)).length;
  const upload = (bytes: number, caller = owner) =>
    caller.post(`/api/dashboard/media?filename=a.bin`, undefined, { body: new Uint8Array(bytes).fill(7), headers: { "content-type": "application/octet-stream" } });
  const submit = async (bytes: number) => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("cv", new File([new Uint8Array(bytes).fill(1)], "cv.bin", { type: "application/octet-stream" }));
    const { body, type } = await multipart(form);
    return s.post("/api/v1/forms/apply/submit", undefined, { body, headers: { "content-type": type } });
  };
  const ids = async (caller: Caller, path: string) => ((await caller.get(path)).expectStatus(200).body.data as { id: string }[]).map((r) => r.id);

  beforeAll(async () => {
    s = await scenario(driver, { mediaQuota: MEDIA_QUOTA, submissionFileQuota: FILE_QUOTA });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const other = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    wsId = ws.id;
    owner = s.as(await dashboardToken(s.svc.context, ws.id, "owner"));
    otherOwner = s.as(await dashboardToken(s.svc.context, other.id, "owner"), { host: "other.localhost" });
    const form = { slug: "apply", name: "Apply", fields: [{ name: "name", type: "text" }, { name: "cv", type: "file" }] };
    (await owner.post("/api/dashboard/forms", form)).expectStatus(201);
  });
  afterAll(() => s?.close());

  it("refuses a media upload that would pass mediaQuota with 413 naming it, storing nothing; deleting frees the space", async () => {
    const { id } = (await upload(600)).expectStatus(201).body as { id: string };
    expect(await upload(600)).toEqual({ status: 413, body: { error: "This upload would take the workspace's media assets past its quota of 1000 bytes", limit: MEDIA_QUOTA } });
    expect(await ids(owner, "/api/dashboard/media")).toEqual([id]);
    expect(await blobKeys("media")).toBe(1);
    // Exactly up to the quota is allowed; another workspace has a quota of its own.
    (await upload(400)).expectStatus(201);
    (await upload(900, otherOwner)).expectStatus(201);
    (await owner.delete(`/api/dashboard/media/${id}`)).expectStatus(204);
    (await upload(600)).expectStatus(201);
  });

  it("refuses a submission whose files would pass submissionFileQuota with 413 naming it, storing nothing; deleting frees the space", async () => {
    const { id } = (await submit(1500)).expectStatus(201).body as { id: string };
    expect(await submit(600)).toEqual({ status: 413, body: { error: "This upload would take the workspace's files uploaded with form submissions past its quota of 2000 bytes", limit: FILE_QUOTA } });
    expect(await ids(owner, "/api/dashboard/forms/apply/submissions")).toEqual([id]);
    expect(await blobKeys("submissions")).toBe(1);
    // Media and submission files are counted apart: a full media library does not block visitors.
    (await submit(500)).expectStatus(201);
    (await owner.delete(`/api/dashboard/forms/apply/submissions/${id}`)).expectStatus(204);
    (await submit(1400)).expectStatus(201);
  });

  it("keeps the quota when uploads race: of six concurrent uploads of 400 bytes, two fit in 1000", async () => {
    for (const id of await ids(owner, "/api/dashboard/media")) (await owner.delete(`/api/dashboard/media/${id}`)).expectStatus(204);
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload(400)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 413, 413, 413, 413]);
    const stored = (await owner.get("/api/dashboard/media")).expectStatus(200).body as { data: { size: number }[] };
    expect(stored.data.map((m) => m.size)).toEqual([400, 400]);
    expect(await blobKeys("media")).toBe(2);
  });
});
