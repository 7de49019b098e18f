/**
 * The submissions export streams a page at a time (services/submission-export.ts): a form larger
 * than one page comes out whole, in list order, without duplicates, and byte for byte the document
 * a whole-list render gives; submissions arriving or deleted while an export is read neither join
 * it nor shift it; a column only an old submission holds still gets its header. Both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { listOf } from "../../src/core/lists.js";
import { createForm, submitForm } from "../../src/services/forms.js";
import { exportSubmissions, type ExportFormat } from "../../src/services/submission-export.js";
import { deleteSubmission, listSubmissions } from "../../src/services/submissions.js";
import type { ServiceContext } from "../../src/services/context.js";
import { newRowId } from "../../src/storage/ids.js";
import { submissionView, type StoredSubmission } from "../../src/storage/submissions.js";
import { drivers } from "../helpers/database.js";
import { startFormsRig, type FormsRig } from "./helpers.js";

const ROWS = 450;

describe.each(drivers)("streamed submissions export on %s", (driver) => {
  let r: FormsRig;
  let ctx: ServiceContext;

  /**
   * A form with `ROWS` submissions seeded straight into storage, seven to a timestamp so ties cross
   * the 200-row page boundaries, plus the oldest one holding `legacy`, a field the form no longer has.
   */
  async function seed(slug: string): Promise<void> {
    const form = await createForm(ctx, r.wsId, { slug, name: slug, fields: [{ name: "name", type: "string" }, { name: "note", type: "text" }] });
    const at = (second: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, second)).toISOString();
    const row = (data: Record<string, unknown>, second: number): StoredSubmission => ({
      id: newRowId(),
      workspaceId: r.wsId,
      formId: form.id,
      data,
      files: [],
      submitted_at: at(second),
      updated_at: at(second),
    });
    await ctx.db.submissions.insert(row({ name: "old", legacy: "=1+1" }, 0));
    for (let i = 0; i < ROWS - 1; i++) await ctx.db.submissions.insert(row({ name: `n${i}`, note: i % 3 ? `a, "quoted"\nnote ${i}` : undefined }, 1 + Math.floor(i / 7)));
  }

  /** Every submission as the list route pages them (newest first), while nothing changes. */
  async function listed(slug: string): Promise<StoredSubmission[]> {
    const rows: StoredSubmission[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await listSubmissions(ctx, r.wsId, slug, { limit: 100, offset });
      rows.push(...page.rows);
      if (page.rows.length < 100) return rows;
    }
  }

  async function readAll(slug: string, format: ExportFormat): Promise<{ chunks: string[]; count: number }> {
    const exported = await exportSubmissions(ctx, r.wsId, slug, format);
    const chunks: string[] = [];
    for await (const chunk of exported.chunks) chunks.push(chunk);
    return { chunks, count: exported.count };
  }

  beforeAll(async () => {
    r = await startFormsRig(driver);
    ctx = r.t.svc.context;
    await seed("big");
  });
  afterAll(() => r?.close());

  it("JSON: more than one page, streamed in bounded chunks, exactly the whole-list document", async () => {
    const all = await listed("big");
    expect(all).toHaveLength(ROWS);
    const { chunks, count } = await readAll("big", "json");
    expect(count).toBe(ROWS);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.split("\n    {").length - 1).toBeLessThanOrEqual(200);
    expect(chunks.join("")).toBe(JSON.stringify(listOf(all.map(submissionView)), null, 2) + "\n");
  });

  it("JSON of a form without submissions is the empty list", async () => {
    await createForm(ctx, r.wsId, { slug: "empty", name: "Empty", fields: [{ name: "name", type: "string" }] });
    const { chunks, count } = await readAll("empty", "json");
    expect(count).toBe(0);
    expect(chunks.join("")).toBe(JSON.stringify(listOf([]), null, 2) + "\n");
  });

  it("CSV: every row once, in list order, with a header for a column only the oldest submission holds", async () => {
    const all = await listed("big");
    const { chunks, count } = await readAll("big", "csv");
    expect(count).toBe(ROWS);
    expect(chunks.length).toBeGreaterThan(3);
    const text = chunks.join("");
    expect(text.startsWith("id,_submitted_at,_updated_at,name,note,legacy\r\n")).toBe(true);
    expect(text.endsWith("\r\n") && !text.endsWith("\r\n\r\n")).toBe(true);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => x.id)).toEqual(all.map((s) => s.id));
    expect(rows.at(-1)).toMatchObject({ name: "old", legacy: "'=1+1", note: "" });
    expect(rows.find((x) => x.name === "n1")!.note).toBe('a, "quoted"\nnote 1');
  });

  it("CSV of a form without submissions is the header alone", async () => {
    const { chunks, count } = await readAll("empty", "csv");
    expect(count).toBe(0);
    expect(chunks.join("")).toBe("id,_submitted_at,_updated_at,name\r\n");
  });

  for (const format of ["json", "csv"] as const) {
    it(`${format}: a submission arriving or deleted while the export is read neither joins it nor shifts a page`, async () => {
      const slug = `live-${format}`;
      await seed(slug);
      const before = await listed(slug);
      const exported = await exportSubmissions(ctx, r.wsId, slug, format);
      const chunks: string[] = [];
      // Read until the first page of submissions is out (CSV: the header pass is done by then too).
      while (!before.slice(0, 5).some((s) => chunks.join("").includes(s.id))) {
        const next = await exported.chunks.next();
        expect(next.done).toBe(false);
        chunks.push(next.value as string);
      }
      const arrived = await submitForm(ctx, r.wsId, slug, { values: { name: "late" }, uploads: [] });
      expect(arrived.stored).toBe(true);
      const gone = before.at(-3)!;
      await deleteSubmission(ctx, r.wsId, slug, gone.id);
      for await (const chunk of exported.chunks) chunks.push(chunk);

      const text = chunks.join("");
      const ids =
        format === "json"
          ? (JSON.parse(text) as { data: { id: string }[]; meta: { total: number } }).data.map((s) => s.id)
          : (parse(text, { columns: true }) as { id: string }[]).map((s) => s.id);
      expect(ids).toEqual(before.filter((s) => s.id !== gone.id).map((s) => s.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(exported.count).toBe(ROWS - 1);
      if (format === "json") expect(JSON.parse(text).meta).toEqual({ total: ROWS - 1 });
    });
  }

  it("over HTTP the streamed body is the same document", async () => {
    const all = await listed("big");
    const res = (await r.s.as(r.owner).get("/api/dashboard/forms/big/submissions/export?format=json")).expectStatus(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.text).toBe(JSON.stringify(listOf(all.map(submissionView)), null, 2) + "\n");
    const csv = (await r.s.as(r.owner).get("/api/dashboard/forms/big/submissions/export")).expectStatus(200);
    expect((parse(csv.text, { columns: true }) as { id: string }[]).map((x) => x.id)).toEqual(all.map((s) => s.id));
  });
});
