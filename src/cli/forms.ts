/**
 * `svc forms create|list|get|update|delete` and `svc submissions list|delete|export`
 * (docs/forms.md). The CLI is the local owner: it sees submission counts in refusals, and deleting
 * a form that still holds submissions (personal data) needs `--with-submissions`.
 */
import type { Command } from "commander";
import { once } from "node:events";
import { open } from "node:fs/promises";
import { conflict, isServiceError } from "../core/errors.js";
import type { FormField } from "../core/forms.js";
import { createForm, deleteForm, formView, getForm, listForms, updateForm } from "../services/forms.js";
import { deleteSubmission, listSubmissions, submissionView } from "../services/submissions.js";
import { EXPORT_FORMATS, exportSubmissions, type ExportFormat } from "../services/submission-export.js";
import { listOf, pageOf } from "../core/lists.js";
import { collect, parseCount, parseJsonObject } from "./args.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;
const FIELD_FLAG = "--field <name:type[:required]>";
const FIELD_HELP = "a field (repeatable); types: string text email url number boolean date select file (select options: use --definition)";

type View = ReturnType<typeof formView>;
const describeForm = (f: View) => [
  `${f.slug}\t${f.name}\thoneypot ${f.honeypot}`,
  ...f.fields.map((x) => `  ${x.name}: ${x.type}${x.required ? " (required)" : ""}${x.options ? ` [${x.options.join(", ")}]` : ""}`),
];

interface DefinitionFlags {
  workspace?: string;
  name?: string;
  field: string[];
  honeypot?: string;
  definition?: string;
}

export function registerForms(program: Command): void {
  const forms = program.command("forms").description("Form definitions (what visitors may submit)");
  forms
    .command("create <slug>")
    .description("Create a form, e.g. --name Contact --field email:email:required --field message:text")
    .option(...WS)
    .option("--name <name>", "display name (default: the slug)")
    .option(FIELD_FLAG, FIELD_HELP, collect, [])
    .option("--honeypot <field>", "name of the hidden spam-trap field (default _gotcha)")
    .option("--definition <json>", "the whole definition as JSON instead ({name, fields, honeypot?})")
    .action(async (slug: string, opts: DefinitionFlags, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const body = opts.definition
          ? { name: slug, ...parseJsonObject(opts.definition, "--definition"), slug }
          : { slug, name: opts.name ?? slug, fields: opts.field.map(parseFormField), ...(opts.honeypot ? { honeypot: opts.honeypot } : {}) };
        const form = formView(await createForm(svc.context, ws.id, body));
        out.result(form, () => `Created form ${form.slug} with ${form.fields.map((f) => `${f.name}:${f.type}`).join(", ") || "no fields"}`);
      });
    });
  forms
    .command("list")
    .description("List forms (definitions only)")
    .option(...WS)
    .action(async (opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = listOf((await listForms(svc.context, ws.id)).map(formView));
        out.result(list, () => (list.data.length ? list.data.map((f) => `${f.slug}\t${f.name}\t${f.fields.map((x) => x.name).join(", ")}`) : "No forms"));
      });
    });
  forms
    .command("get <slug>")
    .description("Show one form's definition")
    .option(...WS)
    .action(async (slug: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const form = formView(await getForm(svc.context, ws.id, slug));
        out.result(form, () => describeForm(form));
      });
    });
  forms
    .command("update <slug>")
    .description("Change a form: what you name is replaced (--field replaces the whole field list), the rest is kept; refused (409) when stored submissions would violate it")
    .option(...WS)
    .option("--name <name>", "display name")
    .option(FIELD_FLAG, FIELD_HELP, collect, [])
    .option("--honeypot <field>", "name of the hidden spam-trap field")
    .option("--definition <json>", "the whole definition as JSON instead ({name, fields, honeypot?})")
    .action(async (slug: string, opts: DefinitionFlags, cmd: Command) => {
      if (!opts.definition && opts.name === undefined && opts.field.length === 0 && opts.honeypot === undefined) {
        throw new UsageError("Nothing to change: give --name, --field, --honeypot or --definition");
      }
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const before = await getForm(svc.context, ws.id, slug);
        const body = opts.definition
          ? { name: before.name, ...parseJsonObject(opts.definition, "--definition") }
          : {
              name: opts.name ?? before.name,
              fields: opts.field.length ? opts.field.map(parseFormField) : before.fields,
              honeypot: opts.honeypot ?? before.honeypot,
            };
        const form = formView(await updateForm(svc.context, ws.id, slug, body, { revealCount: true }));
        out.result(form, () => [`Updated form ${form.slug}`, ...describeForm(form)]);
      });
    });
  forms
    .command("delete <slug>")
    .description("Delete a form; one holding submissions needs --with-submissions (they are deleted with it)")
    .option(...WS)
    .option("--with-submissions", "also delete its stored submissions and their files")
    .action(async (slug: string, opts: { workspace?: string; withSubmissions?: boolean }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const canDeleteSubmissions = Boolean(opts.withSubmissions);
        const form = await deleteForm(svc.context, ws.id, slug, { revealCount: true, canDeleteSubmissions }).catch((error: unknown) => {
          // The service words its refusal in grants; here the way out is a flag.
          if (!canDeleteSubmissions && isServiceError(error) && error.status === 409) {
            const n = Number(error.details?.submissions ?? 0);
            throw conflict(`Form ${slug} still holds ${n === 1 ? "1 submission" : `${n} submissions`}; add --with-submissions to delete them with it`, { form: slug, submissions: n });
          }
          throw error;
        });
        out.result({ slug: form.slug, deleted: true }, () => `Deleted form ${form.slug}`);
      });
    });

  const submissions = program.command("submissions").description("Submitted form data (personal data: handle with care)");
  submissions
    .command("list <form>")
    .description("List a form's submissions, newest first")
    .option(...WS)
    .option("--limit <n>", "page size (max 200)", "50")
    .option("--offset <n>", "submissions to skip", "0")
    .action(async (slug: string, opts: { workspace?: string; limit: string; offset: string }, cmd: Command) => {
      const page = { limit: parseCount(opts.limit, "--limit"), offset: parseCount(opts.offset, "--offset") };
      if (page.limit < 1 || page.limit > 200) throw new UsageError("--limit takes 1 to 200");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const found = await listSubmissions(svc.context, ws.id, slug, page);
        const list = pageOf(found.rows.map(submissionView), found.total, page);
        out.result(list, () => [...list.data.map((s) => `${s.id}\t${s._submitted_at}\t${JSON.stringify(s.data).slice(0, 80)}`), `${list.data.length} of ${list.meta.total}`]);
      });
    });
  submissions
    .command("delete <form> <id>")
    .description("Delete a submission and its uploaded files")
    .option(...WS)
    .action(async (slug: string, id: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        await deleteSubmission(svc.context, ws.id, slug, id);
        out.result({ id, deleted: true }, () => `Deleted submission ${id}`);
      });
    });
  submissions
    .command("export <form>")
    .description(
      "Export every submission of a form as CSV or JSON, to stdout or --output. CSV cells starting with = + - @ tab or carriage return get a leading ' so spreadsheets show them as text, never run them",
    )
    .option(...WS)
    .option("--format <format>", "csv or json", "csv")
    .option("--output <file>", "write to this file (mode 0600, an existing file included: personal data) instead of stdout")
    .action(async (slug: string, opts: { workspace?: string; format: string; output?: string }, cmd: Command) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(opts.format)) throw new UsageError(`--format takes csv or json, got ${JSON.stringify(opts.format)}`);
      const format = opts.format as ExportFormat;
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const exported = await exportSubmissions(svc.context, ws.id, slug, format);
        if (opts.output) {
          await writePrivateFile(opts.output, exported.chunks);
          out.result({ form: slug, format, count: exported.count, output: opts.output }, () => `Wrote ${exported.count} submission(s) of ${slug} to ${opts.output} (${format})`);
        } else if (out.json && format === "csv") {
          // --json keeps stdout one JSON document; the CSV travels inside it, escaped a chunk at a
          // time (chunks end between records, never inside a character), the count last once known.
          await writeStdout(`{\n  "form": ${JSON.stringify(slug)},\n  "format": "csv",\n  "content": "`);
          for await (const chunk of exported.chunks) await writeStdout(JSON.stringify(chunk).slice(1, -1));
          await writeStdout(`",\n  "count": ${exported.count}\n}\n`);
        } else {
          for await (const chunk of exported.chunks) await writeStdout(chunk);
        }
      });
    });
}

/** `email:email`, `email:email:required`. */
function parseFormField(spec: string): Partial<FormField> {
  const [name, type, ...rest] = spec.split(":");
  if (!name || !type) throw new UsageError(`--field ${spec}: expected name:type[:required]`);
  const unknown = rest.find((p) => p !== "required");
  if (unknown !== undefined) throw new UsageError(`--field ${spec}: unknown part ${JSON.stringify(unknown)} (only "required"; select options need --definition)`);
  return { name, type: type as FormField["type"], ...(rest.includes("required") ? { required: true } : {}) };
}

/** Submissions are personal data: the file is 0600 before any byte lands, even if it existed with a wider mode. */
async function writePrivateFile(path: string, chunks: AsyncIterable<string>): Promise<void> {
  const file = await open(path, "w", 0o600);
  try {
    await file.chmod(0o600);
    for await (const chunk of chunks) await file.write(chunk);
  } finally {
    await file.close();
  }
}

/** Writes to stdout, waiting while its buffer is full so a long export never piles up in memory. */
async function writeStdout(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, "drain");
}
