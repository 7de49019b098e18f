/**
 * The upload limit holds on the service path itself (services/media.ts uploadMedia), so a caller
 * that already holds the bytes (the CLI) meets the same 413 as an HTTP upload does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadMedia } from "../../src/services/media.js";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";

describe.each(drivers)("upload limit on %s", (driver) => {
  let s: ServerScenario;
  let wsId: string;
  beforeAll(async () => {
    s = await scenario(driver, { uploadLimit: 16 });
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
  });
  afterAll(() => s?.close());

  it("refuses one byte past the limit over HTTP and through uploadMedia alike", async () => {
    const owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
    const upload = (n: number) => owner.post("/api/dashboard/media?filename=a.txt", undefined, { body: "x".repeat(n), headers: { "content-type": "text/plain" } });
    (await upload(17)).expectStatus(413);
    (await upload(16)).expectStatus(201);
    await expect(uploadMedia(s.svc.context, wsId, { filename: "a.txt", bytes: new Uint8Array(17) })).rejects.toMatchObject({ status: 413 });
    expect(await uploadMedia(s.svc.context, wsId, { filename: "a.txt", bytes: new Uint8Array(16) })).toMatchObject({ size: 16, content_type: expect.stringMatching(/^text\/plain/) });
  });
});
