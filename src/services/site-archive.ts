/**
 * Reading a site deploy archive (tar, or tar compressed once with gzip) as it streams in, with
 * strict checks: regular files and directories only (no symlinks, hardlinks, devices or FIFOs), no
 * absolute paths or `..` segments, and caps on the entry count, each file's size and the total.
 *
 * Decompression bombs: at most one gzip layer is inflated (archive-layers.ts), and every inflated
 * byte that reaches the tar parser is counted against the cap. A
 * payload that is still compressed after that layer is refused before the parser sees it (the
 * `tar` parser would otherwise inflate gzip or zstd itself, synchronously and uncapped). The parser
 * is fed small chunks with a turn of the event loop between them, so a deploy never holds the
 * process for long. Memory: one file at a time (each file's bytes are handed on before the next
 * is read), never the whole archive, inflated or not.
 */
import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ReadEntry } from "tar";
import { badRequest, ServiceError } from "../core/errors.js";
import { archiveEntryPath } from "../core/site-paths.js";
import { checkInner, openArchive } from "./archive-layers.js";

/** Limits of {@link unpackSiteArchive}. */
export interface ArchiveLimits {
  /** Largest sum of file sizes, and largest archive as sent, bytes (the service's uploadLimit). */
  maxBytes: number;
  /** Most entries of any kind (files and directories). Default 10,000. */
  maxEntries?: number;
  /** Largest single file, bytes. Default min(maxBytes, 25 MiB). */
  maxFileBytes?: number;
}

/** One file of an archive, hashed while it was read. */
export interface ArchiveFile {
  bytes: Uint8Array;
  sha256: string;
}

export const DEFAULT_MAX_ENTRIES = 10_000;
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024;

const FILE_TYPES = new Set(["File", "OldFile", "ContiguousFile"]);
const DIRECTORY_TYPES = new Set(["Directory", "GNUDumpDir"]);
const REFUSED_TYPES: Record<string, string> = {
  SymbolicLink: "symbolic links are not allowed",
  Link: "hard links are not allowed",
  CharacterDevice: "device files are not allowed",
  BlockDevice: "device files are not allowed",
  FIFO: "FIFOs are not allowed",
};

const tooLarge = (message: string, details: Record<string, unknown>) => new ServiceError(413, "payload_too_large", message, details);

/**
 * Unpacks a tar(.gz) stream, handing each file to `onFile` as soon as it is read, and waits for
 * `onFile` before reading on: only the file being read (at most `maxFileBytes`) and what `onFile`
 * keeps are in memory, never the whole archive. A path seen twice is handed over twice (the later
 * one wins, as in tar). Throws 400 naming the first bad entry, 413 past a cap (the compressed
 * bytes count against `maxBytes` too), 415 for a payload compressed twice or with anything but gzip.
 * Answers the number of files handed over.
 *
 * @example
 * await unpackSiteArchive(request.body, { maxBytes: 50 * 1024 * 1024 }, async (path, file) => store(path, file));
 */
export async function unpackSiteArchive(
  archive: Uint8Array | AsyncIterable<Uint8Array>,
  limits: ArchiveLimits,
  onFile: (path: string, file: ArchiveFile) => Promise<void> | void,
): Promise<number> {
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxFileBytes = limits.maxFileBytes ?? Math.min(limits.maxBytes, DEFAULT_MAX_FILE_BYTES);
  // Headers and block padding take at most ~1.5 KiB per entry beyond the file bytes.
  const tarCap = limits.maxBytes + maxEntries * 1536 + 1024 * 1024;

  const sizes = new Map<string, number>();
  const ready: [string, ArchiveFile][] = [];
  let handed = 0;
  let entries = 0;
  let total = 0;
  let failure: Error | undefined;
  // zstd and brotli sniffing off: the bytes it sees are already inflated, and checked below.
  // tar is loaded here: only a site deploy needs it, not start-up.
  const { Parser } = await import("tar");
  const parser = new Parser({ strict: true, maxMetaEntrySize: 64 * 1024, zstd: false, brotli: false });
  const fail = (error: Error, entry: ReadEntry) => {
    failure ??= error;
    entry.resume();
    parser.abort(error);
  };
  parser.on("entry", (entry: ReadEntry) => {
    if (failure) return void entry.resume();
    if (++entries > maxEntries) return fail(tooLarge(`Archive has more than ${maxEntries} entries`, { limit: maxEntries }), entry);
    let path: string;
    try {
      path = archiveEntryPath(entry.path);
    } catch (error) {
      return fail(error as Error, entry);
    }
    if (REFUSED_TYPES[entry.type]) return fail(badRequest(`Archive entry ${JSON.stringify(entry.path)} is refused: ${REFUSED_TYPES[entry.type]}`, { entry: entry.path }), entry);
    if (DIRECTORY_TYPES.has(entry.type)) return void entry.resume();
    if (!FILE_TYPES.has(entry.type) || path === "") {
      return fail(badRequest(`Archive entry ${JSON.stringify(entry.path)} is refused: only regular files and directories are allowed`, { entry: entry.path }), entry);
    }
    if (entry.size > maxFileBytes) {
      return fail(tooLarge(`Archive entry ${JSON.stringify(entry.path)} is larger than the per-file limit of ${maxFileBytes} bytes`, { entry: entry.path, limit: maxFileBytes }), entry);
    }
    total += entry.size - (sizes.get(path) ?? 0);
    sizes.set(path, entry.size);
    if (total > limits.maxBytes) return fail(tooLarge(`Archive files add up to more than the limit of ${limits.maxBytes} bytes`, { limit: limits.maxBytes }), entry);
    // The header states the size: one buffer of exactly that, filled as the data arrives.
    const bytes = Buffer.allocUnsafe(entry.size);
    let filled = 0;
    const hash = createHash("sha256");
    entry.on("data", (chunk: Buffer) => {
      hash.update(chunk);
      filled += chunk.copy(bytes, filled);
    });
    entry.on("end", () => void ready.push([path, { bytes: bytes.subarray(0, filled), sha256: hash.digest("hex") }]));
  });
  const done = new Promise<void>((resolve, reject) => {
    parser.on("error", (error: Error) => {
      failure ??= badRequest(`Not a valid tar archive: ${error.message}`);
      reject(failure);
    });
    parser.on("end", () => (failure ? reject(failure) : resolve()));
  });
  done.catch(() => {});
  // Past the end-of-archive blocks the parser only buffers (growing one Buffer per chunk, which is
  // quadratic): whatever follows is padding, so feeding stops there.
  let eof = false;
  parser.on("eof", () => (eof = true));
  const drain = async () => {
    for (let next = ready.shift(); next; next = ready.shift()) {
      handed++;
      await onFile(...next);
    }
  };

  const { outer, chunks } = await openArchive(archive, limits.maxBytes);
  let seen = 0;
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (failure || eof) break;
    seen += chunk.byteLength;
    if (seen > tarCap) throw tooLarge(`Archive expands to more than the limit of ${limits.maxBytes} bytes`, { limit: limits.maxBytes });
    if (head) {
      // Hold the first bytes back until the magic check can see enough of them.
      head = Buffer.concat([head, chunk]);
      if (head.byteLength < 8) continue;
      checkInner(head, outer);
      parser.write(head);
      head = undefined;
    } else parser.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // Waiting for the consumer is the backpressure: nothing more is inflated meanwhile.
    await drain();
    await nextTurn();
  }
  if (failure) throw failure;
  if (head) {
    checkInner(head, outer);
    parser.write(head);
  }
  parser.end();
  await done;
  await drain();
  return handed;
}
