/**
 * The public form routes (spec 4.1, 5.3, 6.2, 2.7): definition, submit in three encodings with a
 * file, honeypot, field validation, CORS, no keys, rate limit; and form.submitted carrying
 * identifiers only. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { CONTACT, multipart, startFormsRig, type FormsRig } from "./helpers.js";

const SECRET_EMAIL = "visitor.secret@example.org";
const SECRET_MESSAGE = "my very private message 7731";

describe.each(drivers)("form submit on %s", (driver) => {
  let r: FormsRig;
  let formId: string;
  let ip: string;
  const submit = (body: unknown, init: { type?: string; headers?: Record<string, string>; slug?: string } = {}) => {
    const raw = typeof body === "string" || body instanceof Uint8Array;
    return r.s.post(`/api/v1/forms/${init.slug ?? "contact"}/submit`, undefined, {
      body: raw ? (body as string | Uint8Array<ArrayBuffer>) : JSON.stringify(body),
      headers: { "content-type": init.type ?? "application/json", "x-forwarded-for": ip, ...init.headers },
    });
  };
  const stored = async () =>
    ((await r.s.as(r.owner).get("/api/dashboard/forms/contact/submissions")).expectStatus(200).body as { data: Record<string, any>[] }).data;

  beforeAll(async () => {
    r = await startFormsRig(driver);
    const res = await r.s.as(r.owner).post("/api/dashboard/forms", CONTACT);
    expect(res.status).toBe(201);
    formId = (res.body as { id: string }).id;
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    ip = r.address();
    r.s.clearEvents();
  });

  it("serves the public definition with CORS, including the honeypot name", async () => {
    const res = await r.s.get("/api/v1/forms/contact");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.body).toEqual({ id: formId, slug: "contact", name: "Contact us", fields: CONTACT.fields, honeypot: "_gotcha" });
  });

  it("answers the CORS preflight of both public routes, and CORS on errors too", async () => {
    for (const path of ["/api/v1/forms/contact", "/api/v1/forms/contact/submit"]) {
      const res = await r.s.send("OPTIONS", path, undefined, { headers: { origin: "https://site.example", "access-control-request-method": "POST" } });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toContain("POST");
      expect(res.headers.get("access-control-allow-headers")).toContain("content-type");
    }
    const missing = await r.s.get("/api/v1/forms/nope");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
    const bad = await submit({ email: "x" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("is not shadowed by the delivery route /api/v1/:collection/:id", async () => {
    const res = await r.s.get("/api/v1/forms/contact");
    expect((res.body as { slug: string }).slug).toBe("contact");
  });

  it("accepts JSON → 201 {id}, stores typed values, emits form.submitted with identifiers only", async () => {
    const res = await submit({ email: SECRET_EMAIL, message: SECRET_MESSAGE, age: "1234567.5", topic: "sales", newsletter: "on", extra: "dropped" });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = res.body as { id: string };
    expect(Object.keys(body)).toEqual(["id"]);
    const row = (await stored()).find((s) => s.id === body.id)!;
    expect(row.data).toEqual({ email: SECRET_EMAIL, message: SECRET_MESSAGE, age: 1234567.5, topic: "sales", newsletter: true });

    expect(r.s.events).toHaveLength(1);
    const event = r.s.events[0]!;
    expect(event).toEqual({
      workspaceId: r.wsId,
      event: "form.submitted",
      data: { form: { id: formId, slug: "contact", name: "Contact us" }, formId, submission: { id: body.id, _submitted_at: row._submitted_at } },
    });
    expect(Object.keys(event.data).sort()).toEqual(["form", "formId", "submission"]);
    const serialized = JSON.stringify(event);
    for (const value of [SECRET_EMAIL, SECRET_MESSAGE, "sales", "1234567"]) expect(serialized).not.toContain(value);
  });

  it("accepts application/x-www-form-urlencoded", async () => {
    const form = new URLSearchParams({ email: "a@example.com", message: "hello from a form", newsletter: "0" });
    form.append("newsletter", "1"); // hidden input before checkbox: last wins
    const res = await submit(form.toString(), { type: "application/x-www-form-urlencoded" });
    expect(res.status).toBe(201);
    const { id } = res.body as { id: string };
    expect((await stored()).find((s) => s.id === id)!.data).toEqual({ email: "a@example.com", message: "hello from a form", newsletter: true });
    expect(r.s.events.map((e) => e.event)).toEqual(["form.submitted"]);
  });

  it("accepts multipart/form-data with a file: stored as a blob, listed, downloadable, not in the event", async () => {
    const form = new FormData();
    form.set("email", "b@example.com");
    form.set("message", "see attached");
    form.set("cv", new File([new TextEncoder().encode("%PDF-1.4 secret cv")], "../../my cv.pdf", { type: "application/pdf" }));
    const { body, type } = await multipart(form);
    const res = await submit(body, { type });
    expect(res.status).toBe(201);
    const { id } = res.body as { id: string };
    const row = (await stored()).find((s) => s.id === id)!;
    expect(row.data).toEqual({ email: "b@example.com", message: "see attached" });
    expect(row.files).toEqual([{ id: expect.any(String), field: "cv", filename: "my cv.pdf", content_type: "application/pdf", size: 18 }]);
    const file = await r.s.as(r.owner).get(`/api/dashboard/forms/contact/submissions/${id}/files/${row.files[0].id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("attachment");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.text).toBe("%PDF-1.4 secret cv");
    expect(JSON.stringify(r.s.events)).not.toContain("my cv.pdf");
    expect(r.s.events).toHaveLength(1);
  });

  it("a filled honeypot: same status and shape, nothing stored, nothing emitted", async () => {
    const before = (await stored()).length;
    const res = await submit({ email: "bot@example.com", message: "buy now", _gotcha: "http://spam.example" });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = res.body as { id: string };
    expect(Object.keys(body)).toEqual(["id"]);
    // The same kind of id a stored submission gets (time-ordered UUIDv7), minted now: nothing tells them apart.
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Math.abs(parseInt(body.id.replace(/-/g, "").slice(0, 12), 16) - Date.now())).toBeLessThan(60_000);
    const real = (await submit({ email: "a@example.com", message: "hello" })).body as { id: string };
    expect(real.id.slice(14, 15)).toBe(body.id.slice(14, 15));
    // Even an invalid submission with the honeypot filled looks like a success.
    const urlencoded = await submit("_gotcha=x&email=nope", { type: "application/x-www-form-urlencoded" });
    expect(urlencoded.status).toBe(201);
    expect(await stored()).toHaveLength(before + 1);
    expect(r.s.events.map((e) => e.event)).toEqual(["form.submitted"]);
  });

  it.each([
    [{ message: "no email" }, "email: is required"],
    [{ email: "not-an-email", message: "x" }, "email: must be an email address"],
    [{ email: "a@example.com", message: "x".repeat(501) }, "message: must be at most 500 characters"],
    [{ email: "a@example.com", message: "x", age: "old" }, "age: must be a number"],
    [{ email: "a@example.com", message: "x", topic: "jobs" }, 'topic: must be one of "sales", "support"'],
    [{ email: "a@example.com", message: "x", cv: "file.pdf" }, "cv: must be uploaded as a file (multipart/form-data)"],
  ])("refuses %j with 400 naming the field", async (body, message) => {
    const res = await submit(body);
    expect(res.status).toBe(400);
    const json = res.body as { error: string; field: string; errors: unknown[] };
    expect(json.error).toBe(message);
    expect(json.field).toBe(message.split(":")[0]);
    expect(r.s.events).toEqual([]);
  });

  it("refuses an API key with 400 telling the integrator not to ship keys to browsers", async () => {
    const key = await r.key(["forms:read"]);
    for (const token of [key, "pk_not-even-valid"]) {
      const res = await submit({ email: "a@example.com", message: "x" }, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/Do not send an API key.*browsers/);
    }
    expect(r.s.events).toEqual([]);
  });

  it("ignores other credentials on the public routes", async () => {
    const res = await submit({ email: "a@example.com", message: "x" }, { headers: { authorization: `Bearer ${r.owner}` } });
    expect(res.status).toBe(201);
  });

  it("answers 404 for an unknown form and 415 for another content type", async () => {
    expect((await submit({ email: "a@example.com" }, { slug: "nope" })).status).toBe(404);
    expect((await submit("hello", { type: "text/plain" })).status).toBe(415);
  });

  it("rate-limits submissions per client address: 429 with Retry-After, other addresses unaffected", async () => {
    const ok = { email: "a@example.com", message: "x" };
    for (let i = 0; i < 10; i++) expect((await submit(ok)).status).toBe(201);
    const limited = await submit(ok);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    // Honeypot hits count too, and are limited the same way (bots learn nothing).
    expect((await submit({ _gotcha: "x" })).status).toBe(429);
    ip = r.address();
    expect((await submit(ok)).status).toBe(201);
  });
});
