/**
 * Raw blob reads and writes over unstorage, whatever the driver hands back (Buffer, Uint8Array,
 * ArrayBuffer, or a `base64:` string from drivers without raw support).
 */
import type { Storage } from "unstorage";

/** The bytes stored under `key`, or undefined when absent. */
export async function readBlob(blobs: Storage, key: string): Promise<Uint8Array | undefined> {
  const value: unknown = await blobs.getItemRaw(key);
  if (value === null || value === undefined) return undefined;
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === "string") {
    return value.startsWith("base64:") ? Buffer.from(value.slice(7), "base64") : new TextEncoder().encode(value);
  }
  throw new Error(`contentsvc: blob ${key} has an unexpected type (${typeof value})`);
}

/** Stores `bytes` under `key`. */
export async function writeBlob(blobs: Storage, key: string, bytes: Uint8Array): Promise<void> {
  await blobs.setItemRaw(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** Removes keys, best effort: a failure is returned, never thrown (rows are the source of truth). */
export async function removeBlobs(blobs: Storage, keys: string[]): Promise<Error | undefined> {
  let failure: Error | undefined;
  await Promise.all(keys.map((k) => blobs.removeItem(k).catch((e: unknown) => void (failure ??= e as Error))));
  return failure;
}
