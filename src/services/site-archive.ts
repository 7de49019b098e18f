/**
 * Reading a site deploy archive (tar, usually gzip-compressed) into memory with strict checks:
 * regular files and directories only (no symlinks, hardlinks, devices or FIFOs), no absolute paths
 * or `..` segments, and caps on the entry count, each file's size and the total size. The gzip
 * layer is bounded too, so a small archive cannot expand without limit.
 */
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { Parser, type ReadEntry } from "tar";
import { badRequest, ServiceError } from "../core/errors.js";
import { archiveEntryPath } from "../core/site-paths.js";

const gunzipAsync = promisify(gunzip);

/** Limits of {@link extractSiteArchive}. */
export interface ArchiveLimits {
  /** Largest sum of file sizes, bytes (the service's uploadLimit). */
  maxBytes: number;
  /** Most entries of any kind. Default 10,000. */
  maxEntries?: number;
  /** Largest single file, bytes. Default min(maxBytes, 25 MiB). */
  maxFileBytes?: number;
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
 * The archive's files by normalised path (later entries replace earlier ones, as tar does).
 * Throws 400 naming the first bad entry, 413 past a cap.
 *
 * @example
 * const files = await extractSiteArchive(tgzBytes, { maxBytes: 50 * 1024 * 1024 });
 * files.get("index.html"); // Uint8Array
 */
export async function extractSiteArchive(archive: Uint8Array, limits: ArchiveLimits): Promise<Map<string, Uint8Array>> {
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxFileBytes = limits.maxFileBytes ?? Math.min(limits.maxBytes, DEFAULT_MAX_FILE_BYTES);
  // Headers and block padding take at most ~1.5 KiB per entry beyond the file bytes.
  const tarCap = limits.maxBytes + maxEntries * 1536 + 1024 * 1024;
  const tar = await decompress(archive, tarCap, limits.maxBytes);

  const files = new Map<string, Uint8Array>();
  let entries = 0;
  let total = 0;
  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    const parser = new Parser({ strict: true, maxMetaEntrySize: 64 * 1024 });
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
      total += entry.size - (files.get(path)?.byteLength ?? 0);
      if (total > limits.maxBytes) return fail(tooLarge(`Archive files add up to more than the limit of ${limits.maxBytes} bytes`, { limit: limits.maxBytes }), entry);
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => void files.set(path, Buffer.concat(chunks)));
    });
    parser.on("error", (error: Error) => reject(failure ?? badRequest(`Not a valid tar archive: ${error.message}`)));
    parser.on("end", () => (failure ? reject(failure) : resolve(files)));
    parser.end(Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength));
  });
}

/** Gunzips when the bytes start with the gzip magic; a plain tar passes through. */
async function decompress(archive: Uint8Array, cap: number, limit: number): Promise<Uint8Array> {
  if (archive.byteLength < 2 || archive[0] !== 0x1f || archive[1] !== 0x8b) return archive;
  try {
    return await gunzipAsync(archive, { maxOutputLength: cap });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw tooLarge(`Archive expands to more than the limit of ${limit} bytes`, { limit });
    }
    throw badRequest(`Body is not a valid gzip stream: ${(error as Error).message}`);
  }
}
