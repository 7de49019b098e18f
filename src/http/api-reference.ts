/**
 * docs/api.md, rendered from the OpenAPI document (http/openapi.ts): per tag, each operation's
 * method, path, summary, access, parameters and body fields. Pure; the staleness test in
 * test/docs/api-reference.test.ts keeps the committed copy equal to this output.
 */
import { ACCESS_EXTENSION, byTagOrder } from "./openapi.js";
import { describeAccess, type Access } from "./access.js";

type Json = Record<string, unknown>;

const cell = (s: unknown) => String(s ?? "").replace(/\|/g, "\\|").replace(/\n+/g, " ");

/** A short type of a JSON Schema: `string`, `"a" \| "b"`, `array of object`, `string \| null`. */
export function typeOf(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(" | ");
  if (schema.type === "array") return `array of ${typeOf(schema.items as Json | undefined)}`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop()!;
  return String(schema.type ?? "any");
}

/** What else a field schema says: format, bounds, pattern, default. */
function constraints(schema: Json): string {
  const out: string[] = [];
  const s = Array.isArray(schema.anyOf) ? ((schema.anyOf as Json[]).find((x) => x.type !== "null") ?? schema) : schema;
  if (s.format) out.push(`format ${String(s.format)}`);
  for (const [key, label] of [
    ["minLength", "min length"],
    ["maxLength", "max length"],
    ["minimum", "min"],
    ["maximum", "max"],
    ["minItems", "min items"],
    ["maxItems", "max items"],
  ] as const) {
    if (s[key] !== undefined) out.push(`${label} ${String(s[key])}`);
  }
  if (s.pattern && !s.format) out.push(`pattern \`${String(s.pattern)}\``);
  if (schema.default !== undefined) out.push(`default \`${JSON.stringify(schema.default)}\``);
  if (typeof schema.description === "string") out.push(schema.description);
  return out.join("; ");
}

function fieldsTable(schema: Json, prefix = ""): string[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows: string[] = [];
  for (const [name, s] of Object.entries(props)) {
    rows.push(`| \`${prefix}${name}\` | ${cell(typeOf(s))} | ${required.has(name) ? "yes" : "no"} | ${cell(constraints(s))} |`);
    const items = s.type === "array" ? (s.items as Json | undefined) : undefined;
    if (items?.properties) rows.push(...fieldsTable(items, `${prefix}${name}[].`));
  }
  return rows;
}

function renderBody(body: Json | undefined, resolve: Resolve): string[] {
  if (!body) return [];
  const out: string[] = [];
  for (const [type, media] of Object.entries((body.content ?? {}) as Record<string, { schema?: Json }>)) {
    const schema = resolve(media.schema) ?? {};
    const optional = body.required === false ? " (optional)" : "";
    if (schema.properties) {
      out.push(`Body${optional}, \`${type}\`:`, "", "| Field | Type | Required | Notes |", "|---|---|---|---|", ...fieldsTable(schema), "");
    } else {
      out.push(`Body${optional}, \`${type}\`: ${typeof schema.description === "string" ? schema.description : "see the summary"}.`, "");
    }
  }
  return out;
}

function renderParameters(params: Json[] | undefined): string[] {
  if (!params?.length) return [];
  return [
    "| Parameter | In | Required | Notes |",
    "|---|---|---|---|",
    ...params.map((p) => `| \`${cell(p.name)}\` | ${cell(p.in)} | ${p.required ? "yes" : "no"} | ${cell(p.description ?? typeOf(p.schema as Json))} |`),
    "",
  ];
}

/** A schema, or the component a `$ref` names (http/responses.ts). */
type Resolve = (schema: Json | undefined) => Json | undefined;

/** The field names of a response object, or of a list's items: `{id, url, …}`, or "". */
function responseFields(schema: Json | undefined, resolve: Resolve): string {
  const data = (resolve(schema)?.properties as Record<string, Json> | undefined)?.data;
  const item = resolve(data?.type === "array" ? (data.items as Json | undefined) : resolve(schema));
  const props = item?.properties as Json | undefined;
  const named = typeof schema?.$ref === "string" ? schema : typeof (data?.items as Json | undefined)?.$ref === "string" ? (data!.items as Json) : undefined;
  return props ? `${named ? ` — ${typeOf(named)}` : ""} {${Object.keys(props).join(", ")}}` : "";
}

function renderResponse(responses: Record<string, Json>, resolve: Resolve): string {
  const [status, ok] = Object.entries(responses).find(([s]) => /^2\d\d$/.test(s)) ?? ["200", { description: "" }];
  const content = (ok.content ?? {}) as Record<string, { schema?: Json }>;
  const media = Object.keys(content)[0];
  const fields = media === "application/json" ? responseFields(content[media]!.schema, resolve) : "";
  return `Answers ${status}${media && media !== "application/json" ? ` (\`${media}\`)` : ""}: ${cell(`${ok.description}${fields}`)}.`;
}

/** The Markdown reference of an OpenAPI document built by openApiDocument. */
export function renderApiReference(doc: Json): string {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const { securitySchemes: schemes, schemas } = doc.components as { securitySchemes: Record<string, { description: string }>; schemas: Record<string, Json> };
  const resolve: Resolve = (schema) => (typeof schema?.$ref === "string" ? schemas[schema.$ref.split("/").pop()!] : schema);
  const byTag = new Map<string, { method: string; path: string; op: Json }[]>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags as string[])[0]!;
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method: method.toUpperCase(), path, op });
    }
  }
  const tags = [...byTag.keys()].sort(byTagOrder);
  const lines: string[] = [
    "# HTTP API reference",
    "",
    "<!-- Generated from the OpenAPI document (src/http/openapi.ts); regenerate with",
    "     SVC_UPDATE_DOCS=1 npx vitest run test/docs/api-reference.test.ts -->",
    "",
    "Every route of a workspace, generated from the same route table the server runs. Each workspace",
    "serves its live OpenAPI 3.1 document at `GET /api/openapi.json` (with its own collections' entry",
    "schemas and delivery paths, e.g. `GET /api/v1/posts`), and the dashboard shows it in a viewer at",
    "`/_/api/`. Conventions shared by every route (hosts, lists, errors): [API conventions](api-conventions.md);",
    "who may call what: [access](access.md).",
    "",
    "## Credentials",
    "",
    "Always `Authorization: Bearer <token>`:",
    "",
    "| Scheme | Token |",
    "|---|---|",
    ...Object.entries(schemes).map(([name, s]) => `| \`${name}\` | ${cell(s.description)} |`),
    "",
    "## Operations",
    "",
    ...tags.map((tag) => `- [${tag}](#${tag.replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-")})`),
    "",
  ];
  for (const tag of tags) {
    lines.push(`## ${tag}`, "");
    for (const { method, path, op } of byTag.get(tag)!) {
      lines.push(`### ${method} ${path}`, "", cell(op.summary), "");
      lines.push(`Requires: ${describeAccess(op[ACCESS_EXTENSION] as Access)}.`, "");
      lines.push(...renderParameters(op.parameters as Json[] | undefined));
      lines.push(...renderBody(op.requestBody as Json | undefined, resolve));
      lines.push(renderResponse(op.responses as Record<string, Json>, resolve), "");
    }
  }
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}
