/**
 * Form definitions of a workspace (table forms). Fields are stored as JSON; the slug is unique per
 * workspace. Every method takes an optional `db` so services can run it inside a transaction.
 *
 * @example
 * const form = await ctx.db.forms.bySlug(workspaceId, "contact");
 */
import type { FormDefinition, FormField } from "../core/forms.js";
import type { StorageContext } from "./context.js";
import type { Sql } from "./sql.js";
import { parseArrayColumn, parseJsonColumn } from "./json-column.js";

/** A stored form: its definition plus identity and timestamps. */
export interface StoredForm extends FormDefinition {
  id: string;
  workspaceId: string;
  /**
   * Names of fields removed while submissions existed (their values stay stored); null when not
   * known (a form that held submissions before migration 007). Never shown: services/forms.ts.
   */
  retiredFields: string[] | null;
  created_at: string;
  updated_at: string;
}

interface Row {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  fields: string;
  honeypot: string;
  retired_fields: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = "id, workspace_id, slug, name, fields, honeypot, retired_fields, created_at, updated_at";

function toForm(row: Row): StoredForm {
  const fields = parseArrayColumn<FormField>(row.fields);
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    name: row.name,
    fields,
    honeypot: row.honeypot,
    retiredFields: parseNames(row.retired_fields),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The dashboard's JSON view of a form (forms:read): the definition, never submitted data. */
export function formView(f: StoredForm) {
  return { id: f.id, slug: f.slug, name: f.name, fields: f.fields, honeypot: f.honeypot, created_at: f.created_at, updated_at: f.updated_at };
}

/** Repository factory; use through `ctx.db.forms`. */
export function createFormRepo(ctx: StorageContext) {
  return {
    async list(workspaceId: string, db: Sql = ctx.sql): Promise<StoredForm[]> {
      return (await db.all<Row>(`SELECT ${COLUMNS} FROM forms WHERE workspace_id = ? ORDER BY slug`, [workspaceId])).map(toForm);
    },

    /** One indexed lookup; `lock` takes a row lock on PostgreSQL for definition changes. */
    async bySlug(workspaceId: string, slug: string, db: Sql = ctx.sql, lock = false): Promise<StoredForm | undefined> {
      const suffix = lock && db.dialect === "postgresql" ? " FOR UPDATE" : "";
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM forms WHERE workspace_id = ? AND slug = ?${suffix}`, [workspaceId, slug]);
      return row && toForm(row);
    },

    async insert(f: StoredForm, db: Sql = ctx.sql): Promise<void> {
      await db.run("INSERT INTO forms (id, workspace_id, slug, name, fields, honeypot, retired_fields, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
        f.id,
        f.workspaceId,
        f.slug,
        f.name,
        JSON.stringify(f.fields),
        f.honeypot,
        f.retiredFields && JSON.stringify(f.retiredFields),
        f.created_at,
        f.updated_at,
      ]);
    },

    async update(f: StoredForm, db: Sql = ctx.sql): Promise<void> {
      await db.run("UPDATE forms SET name = ?, fields = ?, honeypot = ?, retired_fields = ?, updated_at = ? WHERE id = ?", [
        f.name,
        JSON.stringify(f.fields),
        f.honeypot,
        f.retiredFields && JSON.stringify(f.retiredFields),
        f.updated_at,
        f.id,
      ]);
    },

    /** Deletes the form and its submissions (explicitly, not relying on the driver enforcing FKs). */
    async remove(id: string, db: Sql = ctx.sql): Promise<void> {
      await db.run("DELETE FROM submissions WHERE form_id = ?", [id]);
      await db.run("DELETE FROM forms WHERE id = ?", [id]);
    },
  };
}

/** A stored name list; anything unreadable is "not known" (null), the cautious reading. */
function parseNames(json: string | null): string[] | null {
  const v = json === null ? undefined : parseJsonColumn(json);
  return Array.isArray(v) && v.every((n) => typeof n === "string") ? v : null;
}
