/**
 * Reading a site deploy archive (tar, or tar compressed once with gzip) into memory with strict
 * checks: regular files and directories only (no symlinks, hardlinks, devices or FIFOs), no
 * absolute paths or `..` segments, and caps on the entry count, each file's size and the total.
 *
 * Decompression bombs: at most one gzip layer is inflated, by zlib's asynchronous stream (in the
 * thread pool), and every inflated byte that reaches the tar parser is counted against the cap. A
 * payload that is still compressed after that layer is refused before the parser sees it (the
 * `tar` parser would otherwise inflate gzip or zstd itself, synchronously and uncapped). The parser
 * is fed small chunks with a turn of the event loop between them, so a deploy never holds the
 * process for long.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import type { ReadEntry } from "tar";
import { badRequest, ServiceError } from "../core/errors.js";
import { archiveEntryPath } from "../core/site-paths.js";

/** Limits of {@link extractSiteArchive}. */
export interface ArchiveLimits {
  /** Largest sum of file sizes, bytes (the service's uploadLimit). */
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
const CHUNK = 64 * 1024;

const FILE_TYPES = new Set(["File", "OldFile", "ContiguousFile"]);
const DIRECTORY_TYPES = new Set(["Directory", "GNUDumpDir"]);
const REFUSED_TYPES: Record<string, string> = {
  SymbolicLink: "symbolic links are not allowed",
  Link: "hard links are not allowed",
  CharacterDevice: "device files are not allowed",
  BlockDevice: "device files are not allowed",
  FIFO: "FIFOs are not allowed",
};
const COMPRESSED: [string, number[]][] = [
  ["gzip", [0x1f, 0x8b]],
  ["zstd", [0x28, 0xb5, 0x2f, 0xfd]],
  ["bzip2", [0x42, 0x5a, 0x68]],
  ["xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
];

const tooLarge = (message: string, details: Record<string, unknown>) => new ServiceError(413, "payload_too_large", message, details);
const compressedWith = (bytes: Uint8Array) => COMPRESSED.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];

/**
 * The archive's files by normalised path (later entries replace earlier ones, as tar does).
 * Throws 400 naming the first bad entry, 413 past a cap, 415 for a payload compressed twice or
 * with anything but gzip.
 *
 * @example
 * const files = await extractSiteArchive(tgzBytes, { maxBytes: 50 * 1024 * 1024 });
 * files.get("index.html"); // { bytes, sha256 }
 */
export async function extractSiteArchive(archive: Uint8Array, limits: ArchiveLimits): Promise<Map<string, ArchiveFile>> {
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxFileBytes = limits.maxFileBytes ?? Math.min(limits.maxBytes, DEFAULT_MAX_FILE_BYTES);
  // Headers and block padding take at most ~1.5 KiB per entry beyond the file bytes.
  const tarCap = limits.maxBytes + maxEntries * 1536 + 1024 * 1024;
  const outer = compressedWith(archive);
  if (outer && outer !== "gzip") throw unsupported(`Archive is compressed with ${outer}; send a tar, or a tar compressed with gzip`);

  const files = new Map<string, ArchiveFile>();
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
    total += entry.size - (files.get(path)?.bytes.byteLength ?? 0);
    if (total > limits.maxBytes) return fail(tooLarge(`Archive files add up to more than the limit of ${limits.maxBytes} bytes`, { limit: limits.maxBytes }), entry);
    const chunks: Buffer[] = [];
    const hash = createHash("sha256");
    entry.on("data", (chunk: Buffer) => {
      hash.update(chunk);
      chunks.push(chunk);
    });
    entry.on("end", () => void files.set(path, { bytes: Buffer.concat(chunks), sha256: hash.digest("hex") }));
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

  let seen = 0;
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of outer ? inflate(archive) : slices(archive)) {
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
    await nextTurn();
  }
  if (failure) throw failure;
  if (head) {
    checkInner(head, outer);
    parser.write(head);
  }
  parser.end();
  await done;
  return files;
}

const unsupported = (message: string) => new ServiceError(415, "unsupported_media_type", message);

function checkInner(head: Uint8Array, outer: string | undefined): void {
  const inner = compressedWith(head);
  if (!inner) return;
  throw unsupported(
    outer
      ? `Archive is compressed twice (${inner} inside ${outer}); send a tar compressed with gzip at most once`
      : `Archive is compressed with ${inner}; send a tar, or a tar compressed with gzip`,
  );
}

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.byteLength; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
}

/** The gunzipped bytes, as zlib's stream hands them out (asynchronously, in the thread pool). */
async function* inflate(archive: Uint8Array): AsyncGenerator<Uint8Array> {
  const gunzip = Readable.from(slices(archive)).pipe(createGunzip());
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    throw badRequest(`Body is not a valid gzip stream: ${(error as Error).message}`);
  } finally {
    gunzip.destroy();
  }
}
