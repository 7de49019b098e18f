/**
 * SQL of an entry list page (delivery, dashboard, MCP). Column names come from a fixed map; user
 * field names (already checked against the definition by core/entry-query.ts) are still bound as
 * parameters, never spliced: `json_extract(data, ?)` on SQLite, `data::jsonb -> CAST(? AS TEXT)`
 * on PostgreSQL. Sorts and filters on system fields read the (collection_id, status, column, id)
 * indexes (migrations 004, 010); user fields live in the JSON `data` and are read row by row within
 * the collection (docs/content.md says which queries are indexed).
 *
 * A cursor (`after`) becomes a keyset condition: a row-value comparison `(col, id) < (?, ?)` when
 * every key is a non-null column sorted the same way (an index range), otherwise the expanded
 * form `k1 > v1 OR (k1 = v1 AND k2 > v2) …`, with unset values last in both directions.
 */
import type { EntryFilter, EntryListQuery, FilterScalar, QueryTarget } from "../core/entry-query.js";
import { CONTAINS_SCAN_LENGTH, SYSTEM_SORT_COLUMNS, targetNullable } from "../core/entry-query.js";
import type { Dialect, SqlValue } from "./sql.js";

export interface ListSql {
  /** `WHERE …` shared by the page and the count. */
  where: string;
  params: SqlValue[];
  /** `AND …` of the cursor (page only), with its parameters. */
  keyset: string;
  keysetParams: SqlValue[];
  /** `ORDER BY …` with its own parameters (after the others). */
  orderBy: string;
  orderParams: SqlValue[];
}

/** An SQL fragment and its parameters. */
interface Fragment {
  sql: string;
  params: SqlValue[];
}

const frag = (sql: string, ...params: SqlValue[]): Fragment => ({ sql, params });

/** Builds the WHERE, keyset and ORDER BY of a list query. */
export function buildListQuery(dialect: Dialect, collectionId: string, query: EntryListQuery, publishedOnly: boolean): ListSql {
  const where: Fragment[] = [frag("collection_id = ?", collectionId)];
  const status = publishedOnly ? "published" : query.status;
  if (status) where.push(frag("status = ?", status));
  for (const filter of query.filters) where.push(filterSql(dialect, filter));

  const order: Fragment[] = [];
  for (const { target, desc } of query.sort) {
    const e = expr(dialect, target);
    // Unset values sort last in both directions, on both dialects (they disagree by default).
    if (targetNullable(target, status === "published")) order.push({ sql: `(${e.sql} IS NULL)`, params: e.params });
    order.push({ sql: `${e.sql} ${desc ? "DESC" : "ASC"}`, params: e.params });
  }
  const keyset = query.after ? keysetSql(dialect, query, status === "published") : frag("");
  const joined = join(where, " AND ");
  const ordered = join(order, ", ");
  return {
    where: `WHERE ${joined.sql}`,
    params: joined.params,
    keyset: keyset.sql ? ` AND (${keyset.sql})` : "",
    keysetParams: keyset.params,
    orderBy: `ORDER BY ${ordered.sql}`,
    orderParams: ordered.params,
  };
}

function join(parts: Fragment[], sep: string): Fragment {
  return { sql: parts.map((p) => p.sql).join(sep), params: parts.flatMap((p) => p.params) };
}

/** The SQL value of a target: a column, or a user field read from the JSON data. */
function expr(dialect: Dialect, target: QueryTarget): Fragment {
  if (target.kind === "system") return frag(SYSTEM_SORT_COLUMNS[target.key]);
  return dialect === "postgresql" ? frag("(data::jsonb -> CAST(? AS TEXT))", target.field.name) : frag("json_extract(data, ?)", jsonPath(target.field.name));
}

/** A bound value compared with `expr`: jsonb on PostgreSQL user fields; SQL values otherwise. */
function value(dialect: Dialect, target: QueryTarget, v: FilterScalar): Fragment {
  if (target.kind === "system") return frag("?", String(v));
  // jsonb equality: 3 = 3.0, true = true, "a" = "a"; no text coercion surprises.
  if (dialect === "postgresql") return frag("CAST(? AS jsonb)", JSON.stringify(v));
  // json_extract yields SQL values: numbers, text, and 1/0 for booleans.
  return frag("?", typeof v === "boolean" ? (v ? 1 : 0) : v);
}

const COMPARE = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;

function filterSql(dialect: Dialect, { target, op, value: v }: EntryFilter): Fragment {
  if (target.kind === "field" && target.field.type === "relations") return relationsFilter(target.field.name, op, v);
  const e = expr(dialect, target);
  const list = (values: FilterScalar[]): Fragment => join(values.map((x) => value(dialect, target, x)), ", ");
  switch (op) {
    case "null":
      return { sql: `${e.sql} IS ${v ? "" : "NOT "}NULL`, params: e.params };
    case "contains": {
      // Case-insensitive substring as a plain search of the lowered text, not LIKE '%…%': LIKE
      // backtracks (stored length × pattern length, seconds on repetitive text), instr/strpos do
      // not, and no character of the value is a wildcard. lower() folds what LIKE/ILIKE folded.
      // Only the first CONTAINS_SCAN_LENGTH characters are searched: one entry's cost is bounded.
      if (dialect === "postgresql") return frag(`strpos(lower(left(data::jsonb ->> CAST(? AS TEXT), ${CONTAINS_SCAN_LENGTH})), lower(?)) > 0`, ...e.params, String(v));
      return { sql: `instr(lower(substr(${e.sql}, 1, ${CONTAINS_SCAN_LENGTH})), lower(?)) > 0`, params: [...e.params, String(v)] };
    }
    case "in":
    case "nin": {
      const l = list(v as FilterScalar[]);
      // "Not in" also matches unset values, like ne: an entry without a value is not one of them.
      return op === "in"
        ? { sql: `${e.sql} IN (${l.sql})`, params: [...e.params, ...l.params] }
        : { sql: `(${e.sql} IS NULL OR ${e.sql} NOT IN (${l.sql}))`, params: [...e.params, ...e.params, ...l.params] };
    }
    case "ne": {
      const x = value(dialect, target, v as FilterScalar);
      return { sql: `(${e.sql} IS NULL OR ${e.sql} <> ${x.sql})`, params: [...e.params, ...e.params, ...x.params] };
    }
    default: {
      const x = value(dialect, target, v as FilterScalar);
      return { sql: `${e.sql} ${COMPARE[op]} ${x.sql}`, params: [...e.params, ...x.params] };
    }
  }
}

/** Many-to-many filters: eq/in "holds one of these ids", ne/nin "holds none", null "holds none at all". */
function relationsFilter(field: string, op: EntryFilter["op"], v: EntryFilter["value"]): Fragment {
  const rel = "SELECT 1 FROM entry_relations r WHERE r.entry_id = entries.id AND r.field = ?";
  const ids = [v].flat().map(String);
  const has = `EXISTS (${rel} AND r.target_id IN (${ids.map(() => "?").join(", ")}))`;
  switch (op) {
    case "null":
      return frag(`${v ? "NOT " : ""}EXISTS (${rel})`, field);
    case "eq":
    case "in":
      return { sql: has, params: [field, ...ids] };
    default:
      return { sql: `NOT ${has}`, params: [field, ...ids] };
  }
}

/** The condition "after the cursor's position" in the query's order. */
function keysetSql(dialect: Dialect, query: EntryListQuery, publishedOnly: boolean): Fragment {
  const keys = query.sort;
  const after = query.after!;
  const plain = keys.every((k) => k.target.kind === "system" && !targetNullable(k.target, publishedOnly) && k.desc === keys[0]!.desc);
  if (plain) {
    const cols = keys.map((k) => expr(dialect, k.target).sql);
    return { sql: `(${cols.join(", ")}) ${keys[0]!.desc ? "<" : ">"} (${cols.map(() => "?").join(", ")})`, params: after.map((v) => String(v)) };
  }
  const ors: Fragment[] = [];
  const equal: Fragment[] = [];
  keys.forEach((k, i) => {
    const e = expr(dialect, k.target);
    const v = after[i] ?? null;
    const nullable = targetNullable(k.target, publishedOnly);
    if (v !== null) {
      const x = value(dialect, k.target, v);
      const beyond = { sql: `${e.sql} ${k.desc ? "<" : ">"} ${x.sql}`, params: [...e.params, ...x.params] };
      // Unset values come after every set one.
      const strictly = nullable ? { sql: `(${beyond.sql} OR ${e.sql} IS NULL)`, params: [...beyond.params, ...e.params] } : beyond;
      ors.push(join([...equal, strictly], " AND "));
      equal.push({ sql: `${e.sql} = ${x.sql}`, params: [...e.params, ...x.params] });
    } else {
      // Nothing set comes after an unset value: only the next keys can move past it.
      equal.push({ sql: `${e.sql} IS NULL`, params: e.params });
    }
  });
  return ors.length > 0 ? { sql: ors.map((o) => `(${o.sql})`).join(" OR "), params: ors.flatMap((o) => o.params) } : frag("1 = 0");
}

/** A SQLite JSON path for a top-level key (field names are validated identifiers; quoted anyway). */
export function jsonPath(field: string): string {
  return `$.${JSON.stringify(field)}`;
}
