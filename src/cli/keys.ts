/**
 * `svc keys create|list|revoke|import-legacy` (DESIGN §4.1; spec 2.1, 3, 5.4.6). Values are
 * printed once, at creation; list never shows them.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { createKey, importLegacyKeys, listKeys, revokeKey, type ApiKeyRecord } from "../services/keys.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";

const listed = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  grants: k.grants,
  collections: k.collections,
  published_only: k.published_only,
  last_used_at: k.last_used_at,
  created_at: k.created_at,
});

/** A key's narrowing in words, for the text output (core/key-scope.ts). */
const narrowing = (k: Pick<ApiKeyRecord, "collections" | "published_only">) =>
  `${k.collections ? `collections ${k.collections.join(",")}` : "all collections"}${k.published_only ? ", published only" : ""}`;

/** `--collections a,b --collections c`: names split on commas, in order. */
const collectNames = (value: string, previous: string[] = []) => [...previous, ...value.split(",").map((n) => n.trim())];

export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("API keys (machine integrations)");

  keys
    .command("create")
    .description("Create an API key; its value is printed this once")
    .option("-w, --workspace <slug>", "workspace slug")
    .requiredOption("--name <name>", "where the key is used")
    .option("--grant <grant...>", "grants, e.g. entries:read media:write (none: the key can do nothing, and a warning says so)")
    .option(
      "--collections <names>",
      "limit the key's collections:* and entries:* grants to these collections, comma-separated (they need not exist yet; default: every collection)",
      collectNames,
    )
    .option("--published-only", "the key reads only published entries, on every surface (what a public website needs)")
    .action(async (opts: { workspace?: string; name: string; grant?: string[]; collections?: string[]; publishedOnly?: boolean }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const k = await createKey(svc.context, ws.id, {
          name: opts.name,
          grants: opts.grant ?? [],
          collections: opts.collections,
          published_only: opts.publishedOnly === true,
        });
        const view = { id: k.id, name: k.name, grants: k.grants, collections: k.collections, published_only: k.published_only, value: k.value, created_at: k.created_at };
        out.result(view, () => [
          `Created API key ${k.name} (${k.id}) with ${k.grants.length ? k.grants.join(", ") : "no grants"} (${narrowing(k)})`,
          `  ${k.value}`,
          "Shown once: store it now; only its hash is kept.",
        ]);
        // spec 5.4.1: such a key authenticates and can do nothing; grants are fixed at creation.
        if (k.grants.length === 0) {
          out.warn(
            `API key ${k.name} has no grants: it authenticates but can do nothing. Grants are chosen at creation: create another with --grant (e.g. --grant entries:read) and revoke this one (svc keys revoke -w ${ws.slug} ${k.id}).`,
          );
        }
      });
    });

  keys
    .command("list")
    .description("List active API keys (never their values)")
    .option("-w, --workspace <slug>", "workspace slug")
    .action(async (opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const all = (await listKeys(svc.context, ws.id)).map(listed);
        out.result(all, () =>
          all.length ? all.map((k) => `${k.id}\t${k.name}\t${k.grants.join(",") || "-"}\t${narrowing(k)}\tlast used ${k.last_used_at ?? "never"}`) : "No API keys",
        );
      });
    });

  keys
    .command("revoke <id>")
    .description("Revoke an API key: immediate and permanent")
    .option("-w, --workspace <slug>", "workspace slug")
    .action(async (id: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const result = await revokeKey(svc.context, ws.id, id);
        out.result(result, () => `Revoked API key ${id}`);
      });
    });

  keys
    .command("import-legacy")
    .description("Import keys from before the grant model by SHA-256 hash; they get the old model's reads")
    .option("-w, --workspace <slug>", "workspace slug")
    .option("--hash <sha256...>", "SHA-256 hex digest(s) of legacy key values")
    .option("--file <path>", "file with one SHA-256 hex digest per line (# comments allowed)")
    .action(async (opts: { workspace?: string; hash?: string[]; file?: string }, cmd: Command) => {
      const hashes = [...(opts.hash ?? [])];
      if (opts.file) hashes.push(...parseHashFile(await readFile(opts.file, "utf8")));
      if (hashes.length === 0) throw new UsageError("Give legacy key hashes with --hash <sha256…> or --file <path>");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const result = await importLegacyKeys(svc.context, ws.id, hashes);
        const view = { imported: result.imported.map(listed), skipped: result.skipped };
        out.result(view, () => [
          `Imported ${result.imported.length} legacy key(s) into ${ws.slug} with ${result.imported[0]?.grants.join(", ") ?? "the legacy grants"}`,
          ...(result.skipped.length ? [`Skipped ${result.skipped.length} already stored`] : []),
        ]);
      });
    });
}

function parseHashFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
}
