/**
 * Storing a deploy's files while the archive is still being unpacked (under the workspace's site
 * lease): each distinct content is counted against the site quota the moment it is read (413 as
 * soon as the deploy passes it) and written in small batches, so a deploy holds at most one batch
 * in memory (BATCH_BYTES, or one file when it is larger), never the whole site. Identical files, in
 * this deploy or an earlier one, are stored once. A failed deploy discards what it wrote.
 */
import { contentTypeFor } from "../core/content-types.js";
import { ServiceError } from "../core/errors.js";
import { removeBlobs, writeBlob } from "../storage/blob-bytes.js";
import { siteBlobKey } from "../storage/site-blobs.js";
import type { SiteLease } from "../storage/site-lease.js";
import type { Manifest } from "../storage/sites.js";
import { dataRecord } from "../core/records.js";
import type { ServiceContext } from "./context.js";
import type { ArchiveFile } from "./site-archive.js";

const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;
// Thousands of parallel writes would exhaust file handles (fs driver).
const WRITERS = 16;

/** What a deploy stored: its manifest, its distinct contents (sha256 → bytes) and the sum of its file sizes. */
export interface StagedDeploy {
  manifest: Manifest;
  blobs: Map<string, number>;
  size: number;
}

export interface SiteWriter {
  /** Takes one unpacked file; resolves once it is counted and, when its batch is full, written. */
  add(path: string, file: ArchiveFile): Promise<void>;
  /** Writes what is left and answers the deploy's manifest. */
  finish(): Promise<StagedDeploy>;
  /** Removes the contents this deploy stored first, while `lease` proves no other deploy uses them. */
  discard(lease: SiteLease): Promise<void>;
}

/** A writer for one deploy of `workspaceId`; the caller holds the workspace's site lease. */
export function createSiteWriter(ctx: ServiceContext, workspaceId: string): SiteWriter {
  const registry = ctx.db.siteBlobs;
  const quota = ctx.options.siteQuota;
  // Paths are the archive's: a file named __proto__ or constructor is a key like any other.
  const manifest: Manifest = dataRecord();
  const distinct = new Map<string, number>();
  let distinctBytes = 0;
  let pending = new Map<string, Uint8Array>();
  let pendingBytes = 0;
  // Registered by this deploy and not stored before it: what a failure must take back.
  const fresh: string[] = [];

  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    pendingBytes = 0;
    const stored = await registry.claim(workspaceId, [...batch.keys()]);
    const missing = [...batch.keys()].filter((sha) => !stored.has(sha));
    fresh.push(...missing);
    const queue = [...missing];
    const worker = async () => {
      for (let sha = queue.pop(); sha; sha = queue.pop()) await writeBlob(ctx.blobs, siteBlobKey(workspaceId, sha), batch.get(sha)!);
    };
    await Promise.all(Array.from({ length: Math.min(WRITERS, queue.length) }, worker));
    await registry.markStored(workspaceId, missing);
  };

  return {
    async add(path, file) {
      const size = file.bytes.byteLength;
      manifest[path] = { size, sha256: file.sha256, content_type: contentTypeFor(path) };
      if (distinct.has(file.sha256)) return;
      distinct.set(file.sha256, size);
      distinctBytes += size;
      if (distinctBytes > quota) {
        throw new ServiceError(413, "payload_too_large", `The site's files take more than this workspace's site quota of ${quota} bytes`, { limit: quota });
      }
      pending.set(file.sha256, file.bytes);
      pendingBytes += size;
      if (pendingBytes >= BATCH_BYTES || pending.size >= BATCH_FILES) await flush();
    },
    async finish() {
      await flush();
      // Paths in order, whatever the archive's; a path it held twice keeps its last content (as tar does).
      const sorted: Manifest = dataRecord(Object.entries(manifest).sort(([a], [b]) => (a < b ? -1 : 1)));
      const files = Object.values(sorted);
      return { manifest: sorted, blobs: new Map(files.map((f) => [f.sha256, f.size])), size: files.reduce((sum, f) => sum + f.size, 0) };
    },
    async discard(lease) {
      pending.clear();
      await lease.check();
      await registry.forget(workspaceId, fresh);
      await removeBlobs(ctx.blobs, fresh.map((sha) => siteBlobKey(workspaceId, sha)));
    },
  };
}
