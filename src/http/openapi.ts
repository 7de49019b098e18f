/**
 * The OpenAPI 3.1 document of a workspace (GET /api/openapi.json), generated from the route table:
 * each route's method, path, access and summary, plus the zod schemas its body is validated with
 * (zod's own JSON Schema output), so the document cannot drift from what the server enforces.
 * The collections passed in add their entry schemas and delivery paths (like GET /api/dashboard/sdk).
 *
 * @example
 * const doc = openApiDocument(allRoutes, collections, { title: "demo" });
 * doc.paths["/api/v1/{collection}"].get["x-contentsvc-access"]; // { kind: "custom", describe: "…" }
 */
import { z } from "zod";
import type { CollectionDefinition } from "../core/collections.js";
import { entrySystemFieldsSchema, fieldValueSchema } from "../core/entry-schema.js";
import { deliveryListParams } from "../core/entry-query.js";
import { TOKEN_PREFIXES } from "../core/keys.js";
import { nullableOnRead, sdkTypeNames } from "../core/sdk.js";
import { describeAccess, type Access } from "./access.js";
import type { BodyDoc, QueryParamDoc, ResponseDoc, RouteDef } from "./route.js";

/** The extension field naming what an operation requires (the route's declared access). */
export const ACCESS_EXTENSION = "x-contentsvc-access";

type Json = Record<string, unknown>;
type Security = Record<string, string[]>[];

const SECURITY_SCHEMES: Record<string, Json> = {
  apiKey: bearer(`API key, \`${TOKEN_PREFIXES.api_key}\` + 64 hex; holds grants (docs/access.md).`),
  dashboardSession: bearer(`Dashboard access token, \`${TOKEN_PREFIXES.dashboard_access}\`…, from POST /api/dashboard/login; an owner or a member with grants.`),
  dashboardRefresh: bearer(
    `Dashboard refresh token, \`${TOKEN_PREFIXES.dashboard_refresh}\`…: never a credential; sent only in the body of POST /api/dashboard/refresh to get a new access token.`,
  ),
  accountSession: bearer(`End-user account session, \`${TOKEN_PREFIXES.account_session}\`…, from POST /api/v1/accounts/login (Identity).`),
};

function bearer(description: string): Json {
  return { type: "http", scheme: "bearer", description };
}

/** Who may call, per access kind; `{}` in a list means "no credential" is one of the options. */
function securityOf(a: Access): Security {
  switch (a.kind) {
    case "public":
      return [];
    case "grant":
      return [{ apiKey: [] }, { dashboardSession: [] }];
    case "owner":
    case "session":
      return [{ dashboardSession: [] }];
    case "key":
      return [{ apiKey: [] }];
    case "account":
      return [{ accountSession: [] }];
    case "custom":
      return [{}, { apiKey: [] }, { dashboardSession: [] }, { accountSession: [] }];
  }
}

/** Named schemas met while building the document, by component name. */
type Components = Map<string, Json>;

/**
 * JSON Schema of a zod schema as a request sends it (defaults optional), without `$schema`.
 * Schemas named with `meta({ id })` (http/responses.ts) become components: zod puts them under
 * `$defs`, and they move to `components` with their references rewritten.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input", components?: Components): Json {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  if (!$defs) return rest;
  if (!components) throw new Error("openapi: a named schema (meta id) is allowed in a body or a response only");
  const lift = (value: Json): Json => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [name, def] of Object.entries($defs as Record<string, Json>)) {
    const lifted = lift(def);
    const known = components.get(name);
    // One name, one shape: a schema whose input and output differ must not carry an id.
    if (known && JSON.stringify(known) !== JSON.stringify(lifted)) throw new Error(`openapi: two different schemas are named ${name}`);
    components.set(name, lifted);
  }
  return lift(rest);
}

const ERROR_SCHEMA: Json = {
  type: "object",
  description: "Every error: `error` is the message; some carry more keys a program can react to (`grant`, `field`, `retry_after`, …).",
  properties: { error: { type: "string" } },
  required: ["error"],
  additionalProperties: true,
};

const WHOLE_META: Json = { type: "object", properties: { total: { type: "integer", minimum: 0 } }, required: ["total"] };
const PAGE_META: Json = {
  type: "object",
  properties: { total: { type: "integer", minimum: 0 }, limit: { type: "integer", minimum: 1 }, offset: { type: "integer", minimum: 0 } },
  required: ["total", "limit", "offset"],
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `{data: [item], meta}`, the one list format (docs/api-conventions.md). */
function listSchema(item: Json, list: "whole" | "page"): Json {
  return {
    type: "object",
    properties: { data: { type: "array", items: item }, meta: ref(list === "page" ? "PageMeta" : "WholeListMeta") },
    required: ["data", "meta"],
  };
}

function bodySchema(doc: BodyDoc, io: "input" | "output", components: Components): Json {
  const description = doc.description ? { description: doc.description } : {};
  // Bytes (media, archives, the SDK): OpenAPI 3.1 describes them by the media type alone.
  if (doc.contentType && doc.contentType !== "application/json") return description;
  if (doc.schema) return { ...jsonSchemaOf(doc.schema, io, components), ...description };
  return { type: "object", ...description };
}

function content(doc: BodyDoc, schema: Json): Json {
  return { [doc.contentType ?? "application/json"]: { schema } };
}

/** rou3 `/api/v1/:collection` → OpenAPI `/api/v1/{collection}`, with the parameter names. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

const TAG_ORDER = ["delivery", "accounts", "dashboard", "mcp", "openapi"];
const tagRank = (tag: string) => {
  const i = TAG_ORDER.findIndex((p) => tag.startsWith(p));
  return i === -1 ? TAG_ORDER.length : i;
};

/** Tags in reading order: what a site calls first (delivery, accounts), then management, then the rest. */
export const byTagOrder = (a: string, b: string) => tagRank(a) - tagRank(b) || a.localeCompare(b);

const SESSION_PATHS = new Set(["login", "refresh", "logout", "me"]);

/** The tag of a path: its surface and resource (`dashboard: collections`, `delivery: forms`, `mcp`). */
export function tagOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  if (parts[1] === "dashboard") return `dashboard: ${SESSION_PATHS.has(parts[2] ?? "") ? "sign-in" : (parts[2] ?? "")}`;
  if (parts[1] === "v1") {
    const resource = parts[2] ?? "";
    if (resource === "accounts") return "accounts";
    return ["media", "forms"].includes(resource) ? `delivery: ${resource}` : "delivery: content";
  }
  return parts[1]?.replace(/\.json$/, "") ?? "other";
}

function queryParameters(query: RouteDef["query"]): Json[] {
  if (!query) return [];
  if (Array.isArray(query)) {
    return query.map((q: QueryParamDoc) => ({ name: q.name, in: "query", required: q.required ?? false, description: q.description, schema: { type: "string" } }));
  }
  const schema = jsonSchemaOf(query);
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const named = Object.entries(props).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    schema: s,
  }));
  // A catch-all (the entry lists' filter[field][op]=value) is one deep-object parameter.
  const rest = schema.additionalProperties;
  if (rest && typeof rest === "object" && typeof (rest as Json).description === "string") {
    named.push({
      name: "filter",
      in: "query",
      required: false,
      description: (rest as Json).description as string,
      schema: { type: "object", additionalProperties: { type: "string" } },
      style: "deepObject",
      explode: true,
    } as (typeof named)[number]);
  }
  return named;
}

function operationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter((p) => p && p !== "api")
    .map((p) => p.replace(/^:/, "by_").replace(/[^A-Za-z0-9]+/g, "_"));
  return [method.toLowerCase(), ...words].join("_");
}

function responses(doc: ResponseDoc | undefined, components: Components): Json {
  const status = String(doc?.status ?? 200);
  let success: Json;
  if (!doc) success = { description: "Success" };
  else if (doc.status === 204) success = { description: doc.description ?? "No content" };
  else {
    const item = doc.schema ? jsonSchemaOf(doc.schema, "output", components) : { type: "object" };
    const schema = doc.list ? listSchema(item, doc.list) : bodySchema(doc, "output", components);
    success = { description: doc.description ?? (doc.list ? "A list" : "Success"), content: content(doc, schema) };
  }
  return { [status]: success, "4XX": { $ref: "#/components/responses/Error" }, "5XX": { $ref: "#/components/responses/Error" } };
}

function operation(route: RouteDef, params: string[], components: Components): Json {
  const op: Json = {
    operationId: operationId(route.method, route.path),
    summary: route.summary,
    description: `Requires: ${describeAccess(route.access)}.`,
    tags: [tagOf(route.path)],
    security: securityOf(route.access),
    [ACCESS_EXTENSION]: route.access,
  };
  const parameters = [
    ...params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...queryParameters(route.query),
  ];
  if (parameters.length) op.parameters = parameters;
  if (route.body) op.requestBody = { required: !route.body.optional, content: content(route.body, bodySchema(route.body, "input", components)) };
  op.responses = responses(route.response, components);
  return op;
}

/** The component name of a collection's entry schema. */
export const entrySchemaName = (collection: string) => `Entry_${collection}`;

/** A collection's entry as read (delivery and dashboard): system fields plus its typed fields, every key present. */
function entrySchema(def: Pick<CollectionDefinition, "name" | "fields" | "access">): Json {
  const fields = Object.fromEntries(def.fields.map((f) => [f.name, nullableOnRead(f) ? fieldValueSchema(f).nullable() : fieldValueSchema(f)]));
  const schema = jsonSchemaOf(entrySystemFieldsSchema.extend(fields));
  return {
    ...schema,
    description: `An entry of collection ${def.name} (access: ${def.access}).`,
    required: Object.keys(schema.properties as Json),
  };
}

function collectionAccess(def: Pick<CollectionDefinition, "access">): { security: Security; access: Access } {
  switch (def.access) {
    case "public":
      return { security: [], access: { kind: "public" } };
    case "private":
      return { security: [{ apiKey: [] }], access: { kind: "grant", grant: "entries:read" } };
    case "gated":
      return {
        security: [{ apiKey: [] }, { accountSession: [] }],
        access: { kind: "custom", describe: "API key with entries:read, or an account session satisfying the collection's rule" },
      };
  }
}

function collectionPaths(def: Pick<CollectionDefinition, "name" | "fields" | "access">, typeName: string): Record<string, Json> {
  const { security, access } = collectionAccess(def);
  const common = { tags: ["delivery: content"], security, [ACCESS_EXTENSION]: access, description: `Requires: ${describeAccess(access)}.` };
  const entry = ref(entrySchemaName(def.name));
  return {
    [`/api/v1/${def.name}`]: {
      get: {
        ...common,
        operationId: `list_${def.name}`,
        summary: `List published ${def.name} entries (${typeName})`,
        parameters: queryParameters(deliveryListParams),
        responses: {
          ...responses(undefined, new Map()),
          "200": { description: "A page of published entries", content: { "application/json": { schema: listSchema(entry, "page") } } },
        },
      },
    },
    [`/api/v1/${def.name}/{id}`]: {
      get: {
        ...common,
        operationId: `get_${def.name}`,
        summary: `One published ${def.name} entry (${typeName})`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
        responses: {
          ...responses(undefined, new Map()),
          "200": {
            description: "The entry",
            content: { "application/json": { schema: { type: "object", properties: { data: entry }, required: ["data"] } } },
          },
        },
      },
    },
  };
}

export interface OpenApiOptions {
  /** The workspace's name, shown as the title. */
  title: string;
  /** Server URL; default `/` (the host the document was read from). */
  server?: string;
}

/** Builds the document; `collections` are those the caller may see (see routes/openapi.ts). */
export function openApiDocument(routes: readonly RouteDef[], collections: Pick<CollectionDefinition, "name" | "fields" | "access">[], options: OpenApiOptions): Json {
  const paths: Record<string, Json> = {};
  const named: Components = new Map();
  for (const route of routes) {
    const { path, params } = openApiPath(route.path);
    const item = (paths[path] ??= {});
    item[route.method.toLowerCase()] = operation(route, params, named);
  }
  const sorted = [...collections].sort((a, b) => a.name.localeCompare(b.name));
  const typeNames = sdkTypeNames(sorted.map((c) => c.name));
  const schemas: Record<string, Json> = { Error: ERROR_SCHEMA, WholeListMeta: WHOLE_META, PageMeta: PAGE_META };
  for (const [name, schema] of [...named].sort(([a], [b]) => a.localeCompare(b))) schemas[name] = schema;
  for (const def of sorted) {
    schemas[entrySchemaName(def.name)] = entrySchema(def);
    Object.assign(paths, collectionPaths(def, typeNames.get(def.name)!));
  }
  return {
    openapi: "3.1.1",
    info: {
      title: `${options.title} — contentsvc API`,
      version: "1",
      description:
        "Generated from the service's route table. Every path is relative to this workspace's host. Lists answer `{data, meta}`; errors answer `{error, …}` (components Error).",
    },
    servers: [{ url: options.server ?? "/" }],
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)))]
      .sort(byTagOrder)
      .map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      responses: { Error: { description: "An error (docs/api-conventions.md)", content: { "application/json": { schema: ref("Error") } } } },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
