/**
 * Forms and submissions in the dashboard (spec 2.2, 5.4.2, 5.4.4, 5.4.5): grants per route,
 * forms:read never reaches submitted data, submissions:* implies forms:read, the schema-change 409
 * with the row count only for holders of submissions:read, edits and deletes (blobs included).
 * Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissionBlobKey } from "../../src/storage/submissions.js";
import { drivers } from "../helpers/database.js";
import { multipart, startFormsRig, type FormsRig } from "./helpers.js";

type Json = Record<string, any>;

describe.each(drivers)("forms dashboard on %s", (driver) => {
  let r: FormsRig;
  const tok: Record<string, string> = {};
  const submit = async (slug: string, values: Record<string, unknown>) => {
    const res = await r.s.post(`/api/v1/forms/${slug}/submit`, values, { headers: { "x-forwarded-for": r.address() } });
    return (res.expectStatus(201).body as { id: string }).id;
  };

  beforeAll(async () => {
    r = await startFormsRig(driver);
    tok.formsRead = await r.key(["forms:read"]);
    tok.formsWrite = await r.key(["forms:write"]);
    tok.formsWriteSubRead = await r.key(["forms:write", "submissions:read"]);
    tok.formsWriteSubWrite = await r.key(["forms:write", "submissions:write"]);
    tok.subRead = await r.key(["submissions:read"]);
    tok.subWrite = await r.key(["submissions:write"]);
    tok.none = await r.key([]);
    tok.memberFormsRead = await r.member(["forms:read"]);
    const fields = [
      { name: "name", type: "string", required: true },
      { name: "plan", type: "select", options: ["free", "pro"] },
      { name: "note", type: "text" },
    ];
    expect((await r.s.as(tok.formsWrite).post("/api/dashboard/forms", { slug: "signup", name: "Sign up", fields })).status).toBe(201);
    await submit("signup", { name: "Ada", plan: "pro" });
    await submit("signup", { name: "Grace", plan: "free" });
    await submit("signup", { name: "Linus" });
  });
  afterAll(() => r?.close());

  it.each([
    ["GET", "/api/dashboard/forms", "none", 403, "forms:read"],
    ["GET", "/api/dashboard/forms", "formsRead", 200],
    ["GET", "/api/dashboard/forms", "subRead", 200], // submissions:* implies forms:read (spec 5.4.2)
    ["GET", "/api/dashboard/forms/signup", "subWrite", 200],
    ["GET", "/api/dashboard/forms/signup", "memberFormsRead", 200],
    ["POST", "/api/dashboard/forms", "formsRead", 403, "forms:write"],
    ["PUT", "/api/dashboard/forms/signup", "subWrite", 403, "forms:write"], // no implication confers a write
    ["GET", "/api/dashboard/forms/signup/submissions", "formsRead", 403, "submissions:read"],
    ["GET", "/api/dashboard/forms/signup/submissions", "formsWrite", 403, "submissions:read"],
    ["GET", "/api/dashboard/forms/signup/submissions", "memberFormsRead", 403, "submissions:read"],
    ["GET", "/api/dashboard/forms/signup/submissions", "subRead", 200],
    ["GET", "/api/dashboard/forms/signup/submissions", "subWrite", 200],
    ["DELETE", "/api/dashboard/forms/signup/submissions/x", "subRead", 403, "submissions:write"],
  ] as const)("%s %s with %s → %i", async (method, path, who, status, grant?: string) => {
    const res = await r.s.as(tok[who]!).send(method, path, method === "POST" || method === "PUT" ? { name: "x" } : undefined);
    expect(res.status).toBe(status);
    if (grant) expect(res.body).toEqual({ error: `Missing grant: ${grant}`, grant });
  });

  it("forms:read lists fields but never submitted data", async () => {
    const list = await r.s.as(tok.formsRead).get("/api/dashboard/forms");
    const text = JSON.stringify(list.body);
    expect(list.body.meta).toEqual({ total: 1 });
    expect(list.body.data[0]).toMatchObject({ slug: "signup", name: "Sign up", honeypot: "_gotcha" });
    expect(list.body.data[0].fields.map((f: Json) => f.name)).toEqual(["name", "plan", "note"]);
    for (const value of ["Ada", "Grace", "Linus"]) expect(text).not.toContain(value);
    expect(JSON.stringify((await r.s.as(tok.formsRead).get("/api/dashboard/forms/signup")).body)).not.toContain("Ada");
  });

  it("lists submissions newest first with meta, and pages", async () => {
    const all = await r.s.as(tok.subRead).get("/api/dashboard/forms/signup/submissions");
    expect(all.body.meta).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(all.body.data.map((s: Json) => s.data.name).sort()).toEqual(["Ada", "Grace", "Linus"]);
    const page = await r.s.as(tok.subRead).get("/api/dashboard/forms/signup/submissions?limit=1&offset=1");
    expect(page.body.data).toHaveLength(1);
    expect((await r.s.as(tok.subRead).get("/api/dashboard/forms/signup/submissions?limit=x")).status).toBe(400);
  });

  describe("schema change refused by stored submissions (spec 5.4.5)", () => {
    const requiredPlan = { name: "Sign up", fields: [{ name: "name", type: "string", required: true }, { name: "plan", type: "select", options: ["free", "pro"], required: true }] };

    it("forms:write alone: 409 without the count", async () => {
      const res = await r.s.as(tok.formsWrite).put("/api/dashboard/forms/signup", requiredPlan);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/^Cannot change form signup: it holds stored submissions and the change narrows fields plan; without submissions:read/);
      expect(res.body.error).not.toMatch(/\d/);
      expect(res.body).not.toHaveProperty("submissions");
      expect(res.body.fields).toEqual(["plan"]);
    });

    it("forms:write + submissions:read: 409 with the count", async () => {
      const res = await r.s.as(tok.formsWriteSubRead).put("/api/dashboard/forms/signup", requiredPlan);
      expect(res.status).toBe(409);
      expect(res.body.error).toContain("1 stored submission would violate");
      expect(res.body.submissions).toBe(1);
    });

    it("an owner (bypasses grants) sees the count", async () => {
      const res = await r.s.as(r.owner).put("/api/dashboard/forms/signup", requiredPlan);
      expect(res.status).toBe(409);
      expect(res.body.submissions).toBe(1);
    });

    it.each([
      ["a removed option still used", { fields: [{ name: "name", type: "string", required: true }, { name: "plan", type: "select", options: ["free"] }] }, 1],
      ["an incompatible type change", { fields: [{ name: "name", type: "email", required: true }] }, 3],
      ["a new required field", { fields: [{ name: "name", type: "string", required: true }, { name: "phone", type: "string", required: true }] }, 3],
      ["a lower max length", { fields: [{ name: "name", type: "string", required: true, max_length: 4 }] }, 2],
    ])("refuses %s", async (_what, change, rows) => {
      const res = await r.s.as(tok.formsWriteSubRead).put("/api/dashboard/forms/signup", { name: "Sign up", ...change });
      expect(res.status).toBe(409);
      expect(res.body.submissions).toBe(rows);
    });

    it("accepts a change no stored row violates, and keeps values of a removed field", async () => {
      const res = await r.s.as(tok.formsWrite).put("/api/dashboard/forms/signup", {
        name: "Sign up!",
        fields: [{ name: "name", type: "text", required: true }, { name: "plan", type: "select", options: ["free", "pro", "team"] }, { name: "company", type: "string" }],
      });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe("Sign up!");
      const rows = await r.s.as(tok.subRead).get("/api/dashboard/forms/signup/submissions");
      expect(rows.body.data.map((s: Json) => s.data.name).sort()).toEqual(["Ada", "Grace", "Linus"]);
    });

    it("validates the definition (400 naming the path) and refuses a rename", async () => {
      const bad = await r.s.as(tok.formsWrite).put("/api/dashboard/forms/signup", { name: "x", fields: [{ name: "a", type: "select" }] });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("fields.0.options: a select field lists its options");
      expect((await r.s.as(tok.formsWrite).put("/api/dashboard/forms/signup", { slug: "other", name: "x" })).status).toBe(400);
      const slug = await r.s.as(tok.formsWrite).post("/api/dashboard/forms", { slug: "Not OK", name: "x" });
      expect(slug.body.error).toMatch(/^slug: /);
      expect((await r.s.as(tok.formsWrite).post("/api/dashboard/forms", { slug: "signup", name: "again" })).status).toBe(409);
    });
  });

  describe("submissions: edit and delete", () => {
    it("PATCH validates against the fields; null clears; unknown names refused", async () => {
      const id = await submit("signup", { name: "Edsger", plan: "free", company: "EWD" });
      const ok = await r.s.as(tok.subWrite).patch(`/api/dashboard/forms/signup/submissions/${id}`, { plan: "pro", company: null });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ name: "Edsger", plan: "pro" });
      // A value of a field since removed from the form can still be erased.
      const [ada] = (await r.s.as(tok.subRead).get("/api/dashboard/forms/signup/submissions?limit=200")).body.data.filter((s: Json) => s.data.name === "Ada");
      await r.s.as(r.owner).put("/api/dashboard/forms/signup", { name: "Sign up", fields: [{ name: "name", type: "text", required: true }] });
      const erased = await r.s.as(tok.subWrite).patch(`/api/dashboard/forms/signup/submissions/${ada.id}`, { plan: null });
      expect(erased.body, JSON.stringify(erased.body)).toMatchObject({ data: { name: "Ada" } });
      await r.s.as(r.owner).put("/api/dashboard/forms/signup", { name: "Sign up", fields: [{ name: "name", type: "text", required: true }, { name: "plan", type: "select", options: ["free", "pro"] }] });
      expect((await r.s.as(tok.subWrite).patch(`/api/dashboard/forms/signup/submissions/${id}`, { plan: "gold" })).body.field).toBe("plan");
      expect((await r.s.as(tok.subWrite).patch(`/api/dashboard/forms/signup/submissions/${id}`, { name: null })).status).toBe(400);
      expect((await r.s.as(tok.subWrite).patch(`/api/dashboard/forms/signup/submissions/${id}`, { nope: 1 })).body.error).toBe("nope: is not a field of this form");
      expect((await r.s.as(tok.subRead).get(`/api/dashboard/forms/signup/submissions/${id}`)).body.data.plan).toBe("pro");
    });

    it("DELETE removes the submission and its file blobs", async () => {
      await r.s.as(r.owner).post("/api/dashboard/forms", { slug: "apply", name: "Apply", fields: [{ name: "cv", type: "file", required: true }] });
      const form = new FormData();
      form.set("cv", new File(["resume bytes"], "cv.txt", { type: "text/plain" }));
      const { body, type } = await multipart(form);
      const res = await r.s.post("/api/v1/forms/apply/submit", undefined, { body, headers: { "content-type": type, "x-forwarded-for": r.address() } });
      const { id } = res.expectStatus(201).body as { id: string };
      const sub = (await r.s.as(tok.subRead).get(`/api/dashboard/forms/apply/submissions/${id}`)).body;
      const key = submissionBlobKey(r.wsId, id, sub.files[0].id);
      expect(await r.t.svc.context.blobs.hasItem(key)).toBe(true);
      expect((await r.s.as(tok.subWrite).delete(`/api/dashboard/forms/apply/submissions/${id}`)).status).toBe(204);
      expect(await r.t.svc.context.blobs.hasItem(key)).toBe(false);
      expect((await r.s.as(tok.subRead).get(`/api/dashboard/forms/apply/submissions/${id}`)).status).toBe(404);
    });

    it("deleting a form with submissions needs submissions:write as well", async () => {
      const refused = await r.s.as(tok.formsWrite).delete("/api/dashboard/forms/signup");
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain("needs submissions:write");
      expect(refused.body).not.toHaveProperty("submissions");
      expect((await r.s.as(tok.formsWriteSubWrite).delete("/api/dashboard/forms/signup")).status).toBe(204);
      expect((await r.s.as(tok.formsRead).get("/api/dashboard/forms/signup")).status).toBe(404);
      expect((await r.s.as(tok.subRead).get("/api/dashboard/forms/signup/submissions")).status).toBe(404);
    });
  });
});
