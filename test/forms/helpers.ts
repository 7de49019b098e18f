/**
 * Forms test rig: a real server (trustProxy on, so each test can be its own client address via
 * X-Forwarded-For and the submit rate limit stays per test), a workspace, credentials, and a
 * scenario on it (requests, and the events fired on ctx.bus).
 */
import type { Grant } from "../../src/core/grants.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import type { DriverName } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

export interface FormsRig {
  t: TestServer;
  wsId: string;
  owner: string;
  s: Scenario;
  key(grants: Grant[]): Promise<string>;
  member(grants: Grant[]): Promise<string>;
  /** A fresh client address for X-Forwarded-For. */
  address(): string;
  close(): Promise<void>;
}

let n = 0;

export async function startFormsRig(driver: DriverName): Promise<FormsRig> {
  const t = await startTestServer(driver, { trustProxy: true });
  const ctx = t.svc.context;
  const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
  const s = await scenario(t);
  return {
    t,
    wsId: ws.id,
    owner: (await createTestSession(ctx, ws.id)).token,
    s,
    key: async (grants) => (await createTestKey(ctx, ws.id, grants)).token,
    member: async (grants) => (await createTestSession(ctx, ws.id, { role: "member", grants })).token,
    address: () => `203.0.113.${++n % 250}`,
    async close() {
      await s.close();
      await t.close();
    },
  };
}

/** A multipart body as a browser would send it: bytes plus the Content-Type with its boundary. */
export async function multipart(form: FormData): Promise<{ body: Uint8Array<ArrayBuffer>; type: string }> {
  const res = new Response(form);
  return { body: new Uint8Array(await res.arrayBuffer()), type: res.headers.get("content-type")! };
}

/** The contact form most tests use. */
export const CONTACT = {
  slug: "contact",
  name: "Contact us",
  fields: [
    { name: "email", type: "email", required: true },
    { name: "message", type: "text", required: true, max_length: 500 },
    { name: "age", type: "number" },
    { name: "topic", type: "select", options: ["sales", "support"] },
    { name: "newsletter", type: "boolean" },
    { name: "cv", type: "file" },
  ],
};
