/**
 * SQL of an entry list page (delivery and dashboard). Column names come from a fixed map; user
 * field names (already checked against the definition by core/entry-query.ts) are still bound as
 * parameters, never spliced: `json_extract(data, ?)` on SQLite, `data::jsonb -> CAST(? AS TEXT)`
 * on PostgreSQL. Default order `-_created_at` (and `_published_at` on delivery) reads the
 * entries_delivery / entries_published indexes.
 */
import type { EntryListQuery } from "../core/entry-query.js";
import { SYSTEM_SORT_COLUMNS } from "../core/entry-query.js";
import type { Dialect, SqlValue } from "./sql.js";

export interface ListSql {
  /** `WHERE …` shared by the page and the count. */
  where: string;
  params: SqlValue[];
  /** `ORDER BY …` with its own parameters (after `params`). */
  orderBy: string;
  orderParams: SqlValue[];
}

/** Builds the WHERE and ORDER BY of a list query. */
export function buildListQuery(dialect: Dialect, collectionId: string, query: EntryListQuery, publishedOnly: boolean): ListSql {
  const clauses = ["collection_id = ?"];
  const params: SqlValue[] = [collectionId];
  const status = publishedOnly ? "published" : query.status;
  if (status) {
    clauses.push("status = ?");
    params.push(status);
  }
  for (const { field, value } of query.filters) {
    if (field.type === "relations") {
      clauses.push("EXISTS (SELECT 1 FROM entry_relations r WHERE r.entry_id = entries.id AND r.field = ? AND r.target_id = ?)");
      params.push(field.name, String(value));
    } else if (dialect === "postgresql") {
      // jsonb equality: 3 = 3.0, true = true, "a" = "a"; no text coercion surprises.
      clauses.push("(data::jsonb -> CAST(? AS TEXT)) = CAST(? AS jsonb)");
      params.push(field.name, JSON.stringify(value));
    } else {
      // json_extract yields SQL values: numbers, text, and 1/0 for booleans (bound as 1/0 too).
      clauses.push("json_extract(data, ?) = ?");
      params.push(jsonPath(field.name), value);
    }
  }

  const dir = query.sort.desc ? "DESC" : "ASC";
  let orderBy: string;
  const orderParams: SqlValue[] = [];
  if (query.sort.kind === "system") {
    const column = SYSTEM_SORT_COLUMNS[query.sort.key];
    // Drafts have no _published_at: put them last on both dialects (they disagree by default).
    const nullable = column === "published_at" && status !== "published";
    orderBy = `ORDER BY ${nullable ? `(${column} IS NULL), ` : ""}${column} ${dir}${column === "id" ? "" : `, id ${dir}`}`;
  } else {
    const expr = dialect === "postgresql" ? "(data::jsonb -> CAST(? AS TEXT))" : "json_extract(data, ?)";
    const key = dialect === "postgresql" ? query.sort.field.name : jsonPath(query.sort.field.name);
    // Unset values sort last in both directions, on both dialects.
    orderBy = `ORDER BY (${expr} IS NULL), ${expr} ${dir}, id ${dir}`;
    orderParams.push(key, key);
  }
  return { where: `WHERE ${clauses.join(" AND ")}`, params, orderBy, orderParams };
}

/** A SQLite JSON path for a top-level key (field names are validated identifiers; quoted anyway). */
export function jsonPath(field: string): string {
  return `$.${JSON.stringify(field)}`;
}
