/**
 * The upload limit holds on the service path itself (services/media.ts uploadMedia), so a caller
 * that already holds the bytes (the CLI) meets the same 413 as an HTTP upload does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadMedia } from "../../src/services/media.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";

describe.each(drivers)("upload limit on %s", (driver) => {
  let t: TestServer;
  let wsId: string;
  beforeAll(async () => {
    t = await startTestServer(driver, { uploadLimit: 16 });
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
  });
  afterAll(() => t?.close());

  it("refuses one byte past the limit over HTTP and through uploadMedia alike", async () => {
    const token = await dashboardToken(t.svc.context, wsId, "owner");
    const post = (n: number) => t.request("/api/dashboard/media?filename=a.txt", { method: "POST", body: "x".repeat(n), token, headers: { "content-type": "text/plain" } });
    expect((await post(17)).status).toBe(413);
    expect((await post(16)).status).toBe(201);
    await expect(uploadMedia(t.svc.context, wsId, { filename: "a.txt", bytes: new Uint8Array(17) })).rejects.toMatchObject({ status: 413 });
    expect(await uploadMedia(t.svc.context, wsId, { filename: "a.txt", bytes: new Uint8Array(16) })).toMatchObject({ size: 16, content_type: expect.stringMatching(/^text\/plain/) });
  });
});
