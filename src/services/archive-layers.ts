/**
 * The layers around a deploy archive's tar bytes: the body counted as it arrives (413 past the
 * limit), at most one gzip layer inflated by zlib's stream (asynchronously, in the thread pool),
 * and the magic checks that refuse (415) any other compression, outside or inside that layer.
 */
import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { badRequest, isServiceError, payloadTooLarge, ServiceError } from "../core/errors.js";

const CHUNK = 64 * 1024;
const COMPRESSED: [string, number[]][] = [
  ["gzip", [0x1f, 0x8b]],
  ["zstd", [0x28, 0xb5, 0x2f, 0xfd]],
  ["bzip2", [0x42, 0x5a, 0x68]],
  ["xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
];

const compressedWith = (bytes: Uint8Array) => COMPRESSED.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];
const unsupported = (message: string) => new ServiceError(415, "unsupported_media_type", message);

/** 415 when the first tar bytes (at least 8) are still compressed. */
export function checkInner(head: Uint8Array, outer: string | undefined): void {
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

/**
 * The archive's tar bytes: the body as it arrives, counted against `limit` (413 past it), inflated
 * by zlib's stream (asynchronously, in the thread pool) when it starts with gzip's magic; `outer`
 * names that layer, for the inner check.
 */
export async function openArchive(archive: Uint8Array | AsyncIterable<Uint8Array>, limit: number) {
  const source = counted(archive instanceof Uint8Array ? slices(archive) : archive, limit);
  // The first bytes decide: read until the longest magic fits (or the body ends).
  let head = Buffer.alloc(0);
  let ended = false;
  while (!ended && head.byteLength < 8) {
    const next = await source.next();
    if (next.done) ended = true;
    else head = Buffer.concat([head, next.value]);
  }
  const outer = compressedWith(head);
  if (outer && outer !== "gzip") throw unsupported(`Archive is compressed with ${outer}; send a tar, or a tar compressed with gzip`);
  async function* whole(): AsyncGenerator<Uint8Array> {
    if (head.byteLength > 0) yield head;
    if (!ended) yield* source;
  }
  return { outer, chunks: outer ? gunzipped(whole()) : whole() };
}

async function* gunzipped(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const gunzip = createGunzip();
  // pipeline hands a failure of the body (413, a dropped connection) on to the loop below.
  pipeline(Readable.from(source), gunzip, () => {});
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    if (isServiceError(error)) throw error;
    throw badRequest(`Body is not a valid gzip stream: ${(error as Error).message}`);
  } finally {
    gunzip.destroy();
  }
}

async function* counted(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > limit) throw payloadTooLarge(limit);
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}
