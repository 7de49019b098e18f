/**
 * The schema-change refusal is no oracle (spec 5.4.5): without submissions:read, a key with
 * forms:write cannot learn stored values by trying narrowing changes one by one (a select list
 * with or without a value, max_length 14 or 15): every narrowing change of a form holding
 * submissions gets the same answer, whatever the values. Real HTTP, every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { startFormsRig, type FormsRig } from "./helpers.js";

const secret = "Ada Lovelace X"; // 14 characters
const base = [
  { name: "name", type: "string" },
  { name: "plan", type: "select", options: ["free", "pro", "team"] },
];
const withName = (extra: Record<string, unknown>) => [{ ...base[0], ...extra }, base[1]];
const withPlan = (options: string[]) => [base[0], { ...base[1], options }];

describe.each(drivers)("schema-change refusal without submissions:read on %s", (driver) => {
  let r: FormsRig;
  const tok: Record<string, string> = {};
  const put = (token: string, fields: unknown[], slug = "probe") => r.s.as(token).put(`/api/dashboard/forms/${slug}`, { name: "Probe", fields });

  beforeAll(async () => {
    r = await startFormsRig(driver);
    tok.formsWrite = await r.key(["forms:write"]);
    tok.formsWriteSubRead = await r.key(["forms:write", "submissions:read"]);
    for (const slug of ["probe", "empty"]) expect((await r.s.as(tok.formsWrite).post("/api/dashboard/forms", { slug, name: "Probe", fields: base })).status).toBe(201);
    (await r.s.post("/api/v1/forms/probe/submit", { name: secret, plan: "pro" }, { headers: { "x-forwarded-for": r.address() } })).expectStatus(201);
  });
  afterAll(() => r?.close());

  it("a select list with or without the stored value gets the same refusal", async () => {
    const without = await put(tok.formsWrite, withPlan(["free", "team"]));
    const including = await put(tok.formsWrite, withPlan(["free", "pro"]));
    expect(without.status).toBe(409);
    expect(including).toEqual(without);
    expect(without.body).toEqual({ error: expect.stringContaining("without submissions:read"), form: "probe", fields: ["plan"] });
    expect(JSON.stringify(without.body)).not.toMatch(/\d/);
  });

  it("max_length 14 and 15 get the same refusal", async () => {
    const fits = await put(tok.formsWrite, withName({ max_length: 14 }));
    const tooShort = await put(tok.formsWrite, withName({ max_length: 13 }));
    expect(fits.status).toBe(409);
    expect(tooShort).toEqual(fits);
    expect(fits.body.fields).toEqual(["name"]);
  });

  it("with submissions:read the check still reads the stored values", async () => {
    expect((await put(tok.formsWriteSubRead, withPlan(["free", "team"]))).status).toBe(409);
    expect((await put(tok.formsWriteSubRead, withName({ max_length: 14 }))).status).toBe(200);
    expect((await put(tok.formsWriteSubRead, base)).status).toBe(200);
  });

  it("widening changes and forms without submissions are not refused", async () => {
    expect((await put(tok.formsWrite, [{ name: "name", type: "text" }, { ...base[1], options: ["free", "pro", "team", "org"] }, { name: "company", type: "string" }])).status).toBe(200);
    expect((await put(tok.formsWrite, withPlan(["free"]), "empty")).status).toBe(200);
    expect((await put(tok.formsWrite, base)).status).toBe(409); // name text → string with a lower limit, options removed
  });

  it("a field removed while submissions exist cannot come back under its name without submissions:read", async () => {
    expect((await put(tok.formsWrite, [{ name: "name", type: "text" }])).status).toBe(200);
    const back = await put(tok.formsWrite, [{ name: "name", type: "text" }, { name: "plan", type: "select", options: ["pro"] }]);
    expect(back.status).toBe(409);
    expect(back.body.fields).toEqual(["plan"]);
    expect((await put(tok.formsWrite, [{ name: "name", type: "text" }, { name: "other", type: "select", options: ["pro"] }])).status).toBe(200);
    expect((await put(tok.formsWriteSubRead, [{ name: "name", type: "text" }, { name: "plan", type: "select", options: ["pro"] }])).status).toBe(200);
  });
});
