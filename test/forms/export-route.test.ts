/**
 * GET /api/dashboard/forms/{slug}/submissions/export: the dashboard's CSV and JSON export, the
 * same documents as `svc submissions export` (formulas defused in CSV), as an attachment named
 * after the form, behind submissions:read only. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { drivers } from "../helpers/database.js";
import { startFormsRig, type FormsRig } from "./helpers.js";

const PATH = "/api/dashboard/forms/poll/submissions/export";

describe.each(drivers)("submissions export route on %s", (driver) => {
  let r: FormsRig;
  beforeAll(async () => {
    r = await startFormsRig(driver);
    const fields = [
      { name: "name", type: "string", required: true },
      { name: "plan", type: "select", options: ["free", "pro"] },
      { name: "seats", type: "number" },
    ];
    (await r.s.as(r.owner).post("/api/dashboard/forms", { slug: "poll", name: "Poll", fields })).expectStatus(201);
    for (const values of [{ name: "Ada, \"the\" first", plan: "pro", seats: -3 }, { name: "=HYPERLINK(\"http://x\")" }]) {
      (await r.s.post("/api/v1/forms/poll/submit", values, { headers: { "x-forwarded-for": r.address() } })).expectStatus(201);
    }
  });
  afterAll(() => r?.close());

  it("CSV by default: an attachment named after the form, RFC 4180, formulas defused, not cached", async () => {
    const res = (await r.s.as(await r.key(["submissions:read"])).get(PATH)).expectStatus(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="poll-submissions\.csv"/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.text).toContain("\r\n");
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.name, x.plan, x.seats])).toEqual([
      ["'=HYPERLINK(\"http://x\")", "", ""],
      ["Ada, \"the\" first", "pro", "-3"],
    ]);
    expect(Object.keys(rows[0]!)).toEqual(["id", "_submitted_at", "_updated_at", "name", "plan", "seats"]);
  });

  it("JSON: the {data, meta} list, values exactly as submitted", async () => {
    const res = (await r.s.as(r.owner).get(`${PATH}?format=json`)).expectStatus(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="poll-submissions\.json"/);
    expect(res.body.meta).toEqual({ total: 2 });
    expect(res.body.data.map((s: { data: unknown }) => s.data)).toEqual([{ name: "=HYPERLINK(\"http://x\")" }, { name: "Ada, \"the\" first", plan: "pro", seats: -3 }]);
  });

  it("refuses an unknown format, an unknown form, and callers without submissions:read", async () => {
    (await r.s.as(r.owner).get(`${PATH}?format=xlsx`)).expectStatus(400).expectBody({ error: "format: expected csv or json", field: "format" });
    (await r.s.as(r.owner).get("/api/dashboard/forms/nope/submissions/export")).expectStatus(404);
    for (const grants of [["forms:read"], ["forms:write"]] as const) {
      (await r.s.as(await r.key([...grants])).get(PATH)).expectStatus(403).expectBody({ grant: "submissions:read" });
    }
    (await r.s.get(PATH)).expectStatus(401);
  });
});
