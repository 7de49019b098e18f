/**
 * `svc media upload|list|get|delete` (docs/media.md). Uploads go through services/media.ts like
 * HTTP uploads: the same size limit, filename and content-type rules, image dimensions. On a
 * terminal, reading the file shows a progress bar on stderr; never with --json or when stderr is
 * not a TTY (scripts, CI).
 */
import type { Command } from "commander";
import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { conflict, ServiceError } from "../core/errors.js";
import { pageOf } from "../core/lists.js";
import { deleteMedia, getMedia, isMediaInUse, listMedia, readMedia, uploadMedia, type MediaRecord } from "../services/media.js";
import { parseCount } from "./args.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;
const line = (m: MediaRecord) => `${m.id}\t${m.content_type}\t${m.size} B${m.width !== undefined ? `\t${m.width}×${m.height}` : ""}\t${m.filename}`;

/** Reads `path` whole, reporting progress to `onChunk`; refuses a file over `limit` before reading. */
async function readUpload(path: string, limit: number, onStart: (size: number) => void, onChunk: (read: number) => void): Promise<Uint8Array> {
  const info = await stat(path).catch(() => {
    throw new UsageError(`Cannot read ${path}: no such file`);
  });
  if (!info.isFile()) throw new UsageError(`${path} is not a file`);
  const tooLarge = () => new ServiceError(413, "payload_too_large", `${path} is larger than the upload limit of ${limit} bytes`, { limit });
  if (info.size > limit) throw tooLarge();
  onStart(info.size);
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of createReadStream(path)) {
    const buf = chunk as Buffer;
    read += buf.byteLength;
    // The file may grow while it is read: count what arrives, never trust the size stat saw.
    if (read > limit) throw tooLarge();
    chunks.push(buf);
    onChunk(read);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export function registerMedia(program: Command): void {
  const media = program.command("media").description("The media library (images, documents, any file)");
  media
    .command("upload <file>")
    .description("Upload a file: stored like an HTTP upload (size limit, content type from --type or the name, image dimensions); a progress bar on a terminal")
    .option(...WS)
    .option("--name <filename>", "the stored filename (default: the file's own name)")
    .option("--type <content-type>", "content type (default: from the filename)")
    .action(async (file: string, opts: { workspace?: string; name?: string; type?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const showBar = !out.json && Boolean(process.stderr.isTTY);
        // Loaded here: only an upload on a terminal draws a bar.
        const bar = showBar ? new (await import("cli-progress")).SingleBar({ format: "uploading [{bar}] {percentage}% {value}/{total} B", stream: process.stderr, hideCursor: true, clearOnComplete: true }) : undefined;
        let bytes: Uint8Array;
        try {
          bytes = await readUpload(file, svc.context.options.uploadLimit, (size) => bar?.start(size, 0), (read) => bar?.update(read));
        } finally {
          bar?.stop();
        }
        const record = await uploadMedia(svc.context, ws.id, { filename: opts.name ?? basename(file), contentType: opts.type, bytes });
        out.result(record, () => `Uploaded ${record.filename} as ${record.id} (${record.content_type}, ${record.size} B${record.width !== undefined ? `, ${record.width}×${record.height}` : ""})`);
      });
    });
  media
    .command("list")
    .description("List media, newest first")
    .option(...WS)
    .option("--limit <n>", "page size (1-100)", "50")
    .option("--offset <n>", "assets to skip", "0")
    .action(async (opts: { workspace?: string; limit: string; offset: string }, cmd: Command) => {
      const page = { limit: parseCount(opts.limit, "--limit"), offset: parseCount(opts.offset, "--offset") };
      if (page.limit < 1 || page.limit > 100) throw new UsageError("--limit takes 1 to 100");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const found = await listMedia(svc.context, ws.id, page);
        const list = pageOf(found.data, found.meta.total, page);
        out.result(list, () => [...list.data.map(line), `${list.data.length} of ${list.meta.total}`]);
      });
    });
  media
    .command("get <id>")
    .description("Show an asset's record; --output saves its bytes")
    .option(...WS)
    .option("--output <file>", "write the asset's bytes to this file")
    .action(async (id: string, opts: { workspace?: string; output?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        if (!opts.output) {
          const record = await getMedia(svc.context, ws.id, id);
          out.result(record, () => line(record));
          return;
        }
        const { record, bytes } = await readMedia(svc.context, ws.id, id);
        await writeFile(opts.output, bytes);
        out.result({ ...record, output: opts.output }, () => `Wrote ${record.filename} (${record.size} B) to ${opts.output}`);
      });
    });
  media
    .command("delete <id>")
    .description("Delete an asset and its bytes; one that entries use only with --force")
    .option(...WS)
    .option("--force", "delete it even though entries use it (they keep an id that no longer resolves)")
    .action(async (id: string, opts: { workspace?: string; force?: boolean }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        try {
          await deleteMedia(svc.context, ws.id, id, { force: opts.force === true });
        } catch (error) {
          if (isMediaInUse(error)) throw conflict(`${error.message}; add --force to delete it anyway`, error.details);
          throw error;
        }
        out.result({ id, deleted: true }, () => `Deleted media ${id}`);
      });
    });
}
