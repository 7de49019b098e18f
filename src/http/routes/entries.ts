/**
 * Entries in the dashboard (DESIGN §4.2): drafts included, entries:read / :write. Writes go
 * through services/entries.ts, the one path that fires the events of spec section 3. The caller
 * goes to every service call: a narrowed key's limits are applied there (core/key-scope.ts).
 */
import { getRouterParam, type H3Event } from "h3";
import { access } from "../access.js";
import { entryListParams, entryReadParams } from "../../core/entry-query.js";
import { entrySchema } from "../responses.js";
import { defineRoutes } from "../route.js";
import { readJsonObject } from "../body.js";
import { collectionFor } from "../../services/collections.js";
import { createEntry, deleteEntry, listEntries, readEntry, updateEntry } from "../../services/entries.js";

const name = (event: H3Event) => getRouterParam(event, "name") ?? "";
const id = (event: H3Event) => getRouterParam(event, "id") ?? "";

export const entryRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/collections/:name/entries",
    access: access.grant("entries:read"),
    summary: "List entries, drafts included: status and the delivery list's query language (docs/content.md) → {data, meta}",
    query: entryListParams,
    response: { schema: entrySchema, list: "page", description: "Entries, drafts included (schemas Entry_<collection>)" },
    handler: async (event, { service, workspace, principal }) =>
      listEntries(service, await collectionFor(service, workspace.id, name(event), principal), event.url.searchParams, { publishedOnly: false, actor: principal }),
  },
  {
    method: "POST",
    path: "/api/dashboard/collections/:name/entries",
    access: access.grant("entries:write"),
    summary: "Create an entry {_status?, …fields} → 201 entry",
    body: { description: "{_status?: draft | published, …the collection's fields} (schemas Entry_<collection>)" },
    response: { schema: entrySchema, status: 201, description: "The entry" },
    handler: async (event, { service, workspace, principal }) => {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const entry = await createEntry(service, workspace.id, name(event), body, principal!.id, principal);
      event.res.status = 201;
      return entry;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/collections/:name/entries/:id",
    access: access.grant("entries:read"),
    summary: "One entry, draft or published: fields, expand (drafts included) → entry",
    query: entryReadParams,
    response: { schema: entrySchema, description: "The entry" },
    handler: async (event, { service, workspace, principal }) =>
      readEntry(service, await collectionFor(service, workspace.id, name(event), principal), id(event), event.url.searchParams, {
        publishedOnly: false,
        actor: principal,
      }),
  },
  {
    method: "PATCH",
    path: "/api/dashboard/collections/:name/entries/:id",
    access: access.grant("entries:write"),
    summary: "Patch fields and/or _status → entry",
    body: { description: "Any subset of the collection's fields and/or _status; null clears an optional field" },
    response: { schema: entrySchema, description: "The entry" },
    handler: async (event, { service, workspace, principal }) => {
      const body = await readJsonObject(event, service.options.bodyLimit);
      return updateEntry(service, workspace.id, name(event), id(event), body, principal);
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/collections/:name/entries/:id",
    access: access.grant("entries:write"),
    summary: "Delete an entry → the entry as it was",
    response: { schema: entrySchema, description: "The entry as it was" },
    handler: async (event, { service, workspace, principal }) => deleteEntry(service, workspace.id, name(event), id(event), principal),
  },
]);
