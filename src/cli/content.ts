/**
 * `svc collections create|list|get|update|delete` and `svc entries create|list|get|update|publish|unpublish|delete`
 * (docs/content.md):
 * try content from a shell without writing curl. Writes go through services/entries.ts like
 * every other write, so they fire the same events. `_created_by` of a CLI write is the
 * workspace's id (the local operator; documented in docs/content.md).
 */
import type { Command } from "commander";
import { ACCESS_MODES, type CollectionDefinition, type FieldDefinition } from "../core/collections.js";
import { isServiceError, ServiceError } from "../core/errors.js";
import { dataRecord } from "../core/records.js";
import { changeCollectionField, collectionView, createCollection, deleteCollection, getCollection, listCollections } from "../services/collections.js";
import { OPERATOR } from "../services/gates.js";
import { createEntry, deleteEntry, getEntry, listEntries, updateEntry } from "../services/entries.js";
import { ENTRY_STATUSES, type Entry } from "../core/events.js";
import { listOf } from "../core/lists.js";
import { FILTER_OPS } from "../core/entry-query.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";
import { choiceOption, collect, parseJson, parseJsonObject, splitPair } from "./args.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;

/** Registers the two command groups. */
export function registerContent(program: Command): void {
  const collections = program.command("collections").description("Collection definitions (content types)");
  collections
    .command("create <name>")
    .description("Create a collection, e.g. --field title:string:required --field author:relation:authors")
    .option(...WS)
    .option("--field <name:type[:target][:required]>", "a field (repeatable); types: string text number boolean datetime json media relation relations", collect, [])
    .addOption(choiceOption("--access <mode>", "public, private or gated", ACCESS_MODES, "private"))
    .option("--rule <id>", "rule of a gated collection")
    .option("--definition <json>", "the whole definition as JSON instead ({name?, fields, access, rule?})")
    .action(async (name: string, opts: { workspace?: string; field: string[]; access: string; rule?: string; definition?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const body = opts.definition
          ? { name, ...parseJsonObject(opts.definition, "--definition") }
          : { name, access: opts.access, fields: opts.field.map(parseFieldSpec), ...(opts.rule ? { rule: opts.rule } : {}) };
        const created = collectionView(await createCollection(svc.context, ws.id, body, OPERATOR));
        out.result(created, () => `Created collection ${created.name} (${created.access}) with ${created.fields.map((f) => `${f.name}:${f.type}`).join(", ") || "no fields"}`);
      });
    });
  collections
    .command("list")
    .description("List collections")
    .option(...WS)
    .action(async (opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = listOf((await listCollections(svc.context, ws.id)).map(collectionView));
        out.result(list, () => (list.data.length ? list.data.map((c) => `${c.name}\t${c.access}\t${c.fields.map((f) => f.name).join(", ")}`) : "No collections"));
      });
    });

  collections
    .command("update <name>")
    .description("Change one field: --add-field title:string:required, --rename-field old:new or --remove-field name [--confirm-drop]")
    .option(...WS)
    .option("--add-field <name:type[:target][:required]>", "add a field (types as for create)")
    .option("--rename-field <old:new>", "rename a field; its stored values move with it")
    .option("--remove-field <name>", "remove a field")
    .option("--confirm-drop", "let --remove-field drop the values entries hold for it")
    .action(async (name: string, opts: { workspace?: string; addField?: string; renameField?: string; removeField?: string; confirmDrop?: boolean }, cmd: Command) => {
      const change = fieldChange(opts);
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const { collection, values } = await changeCollectionField(svc.context, ws.id, name, change, OPERATOR, { confirmDrop: opts.confirmDrop === true }).catch((error: unknown) => {
          // The service names the HTTP query parameter; on the command line it is a flag.
          if (isServiceError(error) && error.details?.confirm === "drop") throw new ServiceError(error.status, error.code, error.message.replace("(confirm=drop)", "(--confirm-drop)"), error.details);
          throw error;
        });
        const view = collectionView(collection);
        out.result({ data: view, meta: { values } }, () => `${changeText(change, values)} in collection ${view.name}: ${view.fields.map((f) => `${f.name}:${f.type}`).join(", ") || "no fields"}`);
      });
    });
  collections
    .command("get <name>")
    .description("Show one collection's definition")
    .option(...WS)
    .action(async (name: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const c = collectionView(await getCollection(svc.context, ws.id, name));
        out.result(c, () => [
          `${c.name} (${c.access}${c.rule ? `, rule ${c.rule}` : ""})`,
          ...c.fields.map((f) => `  ${f.name}: ${f.type}${f.collection ? ` → ${f.collection}` : ""}${f.required ? " (required)" : ""}`),
        ]);
      });
    });
  collections
    .command("delete <name>")
    .description("Delete a collection; refused while it holds entries or another collection's relation targets it")
    .option(...WS)
    .action(async (name: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const removed = await deleteCollection(svc.context, ws.id, name);
        out.result({ name: removed.name, deleted: true }, () => `Deleted collection ${removed.name}`);
      });
    });

  const entries = program.command("entries").description("Entries of a collection (drafts included)");
  entries
    .command("create <collection>")
    .description("Create an entry: --field title=Hello (typed by the definition) or --values '{json}'")
    .option(...WS)
    .option("--field <name=value>", "a field value (repeatable); relations take comma-separated ids", collect, [])
    // Not --data: that is the global data-directory flag.
    .option("--values <json>", "field values as a JSON object")
    .addOption(choiceOption("--status <status>", "draft (default) or published", ENTRY_STATUSES))
    .action(async (collection: string, opts: { workspace?: string; field: string[]; values?: string; status?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const def = await getCollection(svc.context, ws.id, collection);
        const body = { ...(opts.values ? parseJsonObject(opts.values, "--values") : {}), ...fieldValues(def, opts.field), ...(opts.status ? { _status: opts.status } : {}) };
        const entry = await createEntry(svc.context, ws.id, collection, body, ws.id);
        out.result(entry, () => `Created ${entry._status} entry ${entry.id} in ${collection}`);
      });
    });
  entries
    .command("list <collection>")
    .description("List entries, drafts included")
    .option(...WS)
    .addOption(choiceOption("--status <status>", "draft or published", ENTRY_STATUSES))
    .option("--limit <n>", "page size (max 100)", "20")
    .option("--offset <n>", "entries to skip", "0")
    .option("--sort <field>", "field or -field (default -_created_at)")
    .option("--filter <field[op]=value>", `filter (repeatable): field=value, or field[op]=value with op one of ${FILTER_OPS.join(", ")}, as filter[field][op] of the API`, collect, [])
    .action(async (collection: string, opts: { workspace?: string; status?: string; limit: string; offset: string; sort?: string; filter: string[] }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const params = new URLSearchParams({ limit: opts.limit, offset: opts.offset });
        if (opts.status) params.set("status", opts.status);
        if (opts.sort) params.set("sort", opts.sort);
        for (const f of opts.filter) params.append(...filterParam(f));
        const def = await getCollection(svc.context, ws.id, collection);
        const page = await listEntries(svc.context, def, params, { publishedOnly: false }).catch((error: unknown) => {
          // Every query parameter here came from a flag: a refused one is a usage error.
          if (isServiceError(error) && error.status === 400 && error.details?.parameter) throw new UsageError(error.message, error.details);
          throw error;
        });
        out.result(page, () => [...page.data.map(line), `${page.data.length} of ${page.meta.total}`]);
      });
    });
  entries
    .command("get <collection> <id>")
    .description("Show one entry, drafts included")
    .option(...WS)
    .action(async (collection: string, id: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const entry = await getEntry(svc.context, await getCollection(svc.context, ws.id, collection), id);
        out.result(entry);
      });
    });
  entries
    .command("update <collection> <id>")
    .description("Change an entry's fields (a partial update, like PATCH): --field views=4, --values '{json}', --status; a field set to null in --values is cleared")
    .option(...WS)
    .option("--field <name=value>", "a field value (repeatable); relations take comma-separated ids", collect, [])
    .option("--values <json>", "field values as a JSON object")
    .addOption(choiceOption("--status <status>", "draft or published", ENTRY_STATUSES))
    .action(async (collection: string, id: string, opts: { workspace?: string; field: string[]; values?: string; status?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const def = await getCollection(svc.context, ws.id, collection);
        const body = { ...(opts.values ? parseJsonObject(opts.values, "--values") : {}), ...fieldValues(def, opts.field), ...(opts.status ? { _status: opts.status } : {}) };
        if (Object.keys(body).length === 0) throw new UsageError("Nothing to change: give --field, --values or --status");
        const entry = await updateEntry(svc.context, ws.id, collection, id, body);
        out.result(entry, () => `Updated ${entry._status} entry ${entry.id} in ${collection}`);
      });
    });
  entries
    .command("delete <collection> <id>")
    .description("Delete an entry (fires content.deleted)")
    .option(...WS)
    .action(async (collection: string, id: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const entry = await deleteEntry(svc.context, ws.id, collection, id);
        out.result({ id: entry.id, deleted: true }, () => `Deleted entry ${entry.id} from ${collection}`);
      });
    });
  for (const [verb, status] of [["publish", "published"], ["unpublish", "draft"]] as const) {
    entries
      .command(`${verb} <collection> <id>`)
      .description(verb === "publish" ? "Publish an entry (fires content.published)" : "Move an entry back to draft (fires content.unpublished)")
      .option(...WS)
      .action(async (collection: string, id: string, opts: { workspace?: string }, cmd: Command) => {
        await withService(cmd, async (svc, out) => {
          const ws = await requireWorkspace(svc, opts.workspace);
          const entry = await updateEntry(svc.context, ws.id, collection, id, { _status: status });
          out.result(entry, () => `Entry ${entry.id} is ${entry._status}`);
        });
      });
  }
}

/** `title:string`, `title:string:required`, `author:relation:authors[:required]`. */
export function parseFieldSpec(spec: string): Partial<FieldDefinition> {
  const [name, type, ...rest] = spec.split(":");
  if (!name || !type) throw new UsageError(`--field ${spec}: expected name:type[:target][:required]`);
  const field: Partial<FieldDefinition> = { name, type: type as FieldDefinition["type"] };
  for (const part of rest) {
    if (part === "required") field.required = true;
    else field.collection = part;
  }
  return field;
}

/** The PATCH body of `collections update`: exactly one of the three flags. */
function fieldChange(opts: { addField?: string; renameField?: string; removeField?: string; confirmDrop?: boolean }): Record<string, unknown> {
  const given = [opts.addField, opts.renameField, opts.removeField].filter((v) => v !== undefined);
  if (given.length !== 1) throw new UsageError("collections update: give exactly one of --add-field, --rename-field, --remove-field");
  if (opts.confirmDrop && opts.removeField === undefined) throw new UsageError("--confirm-drop goes with --remove-field");
  if (opts.addField !== undefined) return { add: parseFieldSpec(opts.addField) };
  if (opts.removeField !== undefined) return { remove: opts.removeField };
  const [from, to, ...rest] = opts.renameField!.split(":");
  if (!from || !to || rest.length > 0) throw new UsageError(`--rename-field ${opts.renameField}: expected old:new`);
  return { rename: { from, to } };
}

function changeText(change: Record<string, unknown>, values: number): string {
  const n = values === 1 ? "1 value" : `${values} values`;
  if ("add" in change) return `Added field ${(change.add as { name: string }).name}`;
  if ("rename" in change) return `Renamed field ${(change.rename as { from: string }).from} to ${(change.rename as { to: string }).to} (${n} moved)`;
  return `Removed field ${String(change.remove)} (${n} dropped)`;
}

/** `--field name=value` typed by the definition; unknown names pass as strings (the service refuses them). */
function fieldValues(def: CollectionDefinition, pairs: string[]): Record<string, unknown> {
  // Prototype-less: `--field __proto__=x` is a key the service refuses by name, not a lost write.
  const out = dataRecord();
  for (const pair of pairs) {
    const [name, raw] = splitPair(pair, "--field");
    const type = def.fields.find((f) => f.name === name)?.type;
    if (type === "number") out[name] = raw.trim() === "" ? raw : Number(raw);
    else if (type === "boolean") out[name] = raw === "true" ? true : raw === "false" ? false : raw;
    else if (type === "relations") out[name] = raw === "" ? [] : raw.split(",").map((s) => s.trim());
    else if (type === "json") out[name] = parseJson(raw, `--field ${name}`);
    else out[name] = raw;
  }
  return out;
}

/**
 * `--filter title[contains]=ada` → `filter[title][contains]=ada`, `--filter views=3` →
 * `filter[views]=3`: the API's parameter, judged by the same query parser as over HTTP.
 */
function filterParam(flag: string): [string, string] {
  const [name, value] = splitPair(flag, "--filter");
  const m = /^([^[\]]+)(\[[^[\]]*\])?$/.exec(name);
  if (!m) throw new UsageError(`--filter ${flag}: expected field=value or field[op]=value (op: ${FILTER_OPS.join(", ")})`);
  return [`filter[${m[1]}]${m[2] ?? ""}`, value];
}

function line(e: Entry): string {
  const title = Object.entries(e).find(([k, v]) => k !== "id" && !k.startsWith("_") && typeof v === "string")?.[1];
  return `${e.id}\t${e._status}\t${e._updated_at}${title ? `\t${String(title).slice(0, 60)}` : ""}`;
}
