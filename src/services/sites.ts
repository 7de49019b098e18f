/**
 * Static site use cases (spec 2.2 `sites`): deploy an archive as an immutable deploy and make it
 * live atomically, roll back to the previous or a named deploy, and resolve a request path to a
 * file of the live deploy. Shared by the HTTP routes and `svc site`.
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict, payloadTooLarge, ServiceError } from "../core/errors.js";
import { contentTypeFor } from "../core/content-types.js";
import { dataRecord } from "../core/records.js";
import { distinctBytes } from "../core/site-retention.js";
import { repo } from "../storage/context.js";
import type { ServiceContext } from "./context.js";
import { readBlob, removeBlobs, writeBlob } from "../storage/blob-bytes.js";
import { createSiteBlobRepo, legacySiteBlobKey, siteBlobKey } from "../storage/site-blobs.js";
import { acquireSiteLease, type SiteLease } from "../storage/site-lease.js";
import { createSiteRepo, type DeployRecord, type Manifest, type ManifestFile, type StoredDeploy } from "../storage/sites.js";
import { extractSiteArchive, type ArchiveLimits } from "./site-archive.js";
import { pruneSite } from "./site-retention.js";

export type { DeployRecord };

/** What a deploy or rollback answers: the now-live deploy and the one it replaced. */
export interface LiveDeploy extends DeployRecord {
  previous_deploy_id: string | null;
}

const sites = (ctx: ServiceContext) => repo(ctx, createSiteRepo);

/**
 * Deploys a tar(.gz) archive and makes it live, then prunes old deploys and unreferenced files.
 * `archive` is the whole body, or a stream counted against uploadLimit (413 past it). Files are
 * stored once per workspace whatever the deploy; one deploy at a time per workspace (a second
 * waits, 409 if the first takes too long).
 *
 * @example
 * const deploy = await deploySite(ctx, ws.id, createReadStream("site.tgz"));
 */
export async function deploySite(
  ctx: ServiceContext,
  workspaceId: string,
  archive: Uint8Array | AsyncIterable<Uint8Array>,
  limits: Partial<ArchiveLimits> = {},
): Promise<LiveDeploy> {
  const bytes = archive instanceof Uint8Array ? archive : await collect(archive, ctx.options.uploadLimit);
  if (bytes.byteLength > ctx.options.uploadLimit) throw payloadTooLarge(ctx.options.uploadLimit);
  const files = await extractSiteArchive(bytes, { maxBytes: ctx.options.uploadLimit, maxEntries: ctx.options.siteMaxFiles, ...limits });
  if (files.size === 0) throw badRequest("The archive contains no files");

  const id = randomUUID();
  // Paths are the archive's: a file named __proto__ or constructor is a key like any other.
  const manifest: Manifest = dataRecord();
  const contents = new Map<string, Uint8Array>();
  let size = 0;
  for (const [path, file] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    manifest[path] = { size: file.bytes.byteLength, sha256: file.sha256, content_type: contentTypeFor(path) };
    contents.set(file.sha256, file.bytes);
    size += file.bytes.byteLength;
  }
  const blobs = new Map([...contents].map(([sha, data]) => [sha, data.byteLength]));
  const quota = ctx.options.siteQuota;
  const distinct = distinctBytes(blobs);
  if (distinct > quota) {
    throw new ServiceError(413, "payload_too_large", `The site's files take ${distinct} bytes, more than this workspace's site quota of ${quota} bytes`, { limit: quota });
  }

  const lease = await acquireSiteLease(ctx.sql, workspaceId);
  try {
    const written = await storeContents(ctx, workspaceId, contents);
    const createdAt = new Date(ctx.now()).toISOString();
    let pointer;
    try {
      pointer = await sites(ctx).insertLive(workspaceId, { id, manifest, size, createdAt }, (tx) => lease.check(tx));
    } catch (error) {
      await discard(ctx, workspaceId, written, lease).catch(() => {});
      throw error;
    }
    // The deploy is live whatever happens next; a failed prune is retried by the next deploy.
    await pruneSite(ctx, workspaceId, { id, blobs, previousId: pointer.previous_deploy_id }, lease).catch((error: unknown) =>
      ctx.logger.warn(`pruning the site of workspace ${workspaceId} failed:`, error),
    );
    return { id, file_count: files.size, size, created_at: createdAt, live: true, previous_deploy_id: pointer.previous_deploy_id };
  } finally {
    await lease.release().catch(() => {});
  }
}

/**
 * Makes the previous deploy live again, or the named one. Instant: only the pointer moves, and
 * the pointer is read on every request, so the very next request serves the target.
 */
export async function rollbackSite(ctx: ServiceContext, workspaceId: string, deployId?: string): Promise<LiveDeploy> {
  const repoS = sites(ctx);
  const current = await repoS.live(workspaceId);
  if (!current) throw conflict("Nothing is deployed yet; there is nothing to roll back");
  const target = deployId ?? current.previous_deploy_id;
  if (!target) throw conflict("There is no previous deploy to roll back to; name one with deploy_id");
  const record = await repoS.get(workspaceId, target);
  if (target === current.deploy_id) return { ...record, previous_deploy_id: current.previous_deploy_id };
  const pointer = await repoS.switchLive(workspaceId, current.deploy_id, target);
  return { ...record, live: true, previous_deploy_id: pointer.previous_deploy_id };
}

/** Deploys newest first, the live one marked. */
export const listDeploys = (ctx: ServiceContext, workspaceId: string, page = { limit: 50, offset: 0 }) => sites(ctx).list(workspaceId, page);

/** A file of the live deploy, ready to serve. */
export interface SiteFile extends ManifestFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The first candidate path present in the live deploy, else its `404.html` (flagged), else
 * undefined. Nothing deployed: `{ deployed: false }`.
 */
export async function resolveSiteFile(
  ctx: ServiceContext,
  workspaceId: string,
  candidates: string[],
): Promise<{ deployed: false } | { deployed: true; file?: SiteFile; notFound: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const live = await sites(ctx).live(workspaceId);
    if (!live) return { deployed: false };
    const deploy = await cachedDeploy(ctx, workspaceId, live.deploy_id);
    // The deploy read a moment ago may have been pruned since: read the pointer once more.
    if (!deploy && attempt === 1) continue;
    const manifest = deploy?.manifest ?? {};
    const hit = candidates.find((p) => Object.hasOwn(manifest, p));
    const path = hit ?? (Object.hasOwn(manifest, "404.html") ? "404.html" : undefined);
    if (!path) return { deployed: true, notFound: true };
    const entry = manifest[path]!;
    const key = deploy!.layout === 2 ? siteBlobKey(workspaceId, entry.sha256) : legacySiteBlobKey(workspaceId, deploy!.id, entry.sha256);
    const bytes = await readBlob(ctx.blobs, key);
    if (bytes) return { deployed: true, file: { path, ...entry, bytes }, notFound: hit === undefined };
    if (attempt === 2) throw new Error(`contentsvc: deploy ${live.deploy_id} is missing the blob of ${path}`);
  }
}

// Deploys are immutable, so a manifest cached by deploy id is never stale; the live pointer itself
// is never cached. Bounded: the least recently used manifest is dropped first.
const MANIFEST_CACHE_SIZE = 32;
const manifests = new WeakMap<ServiceContext, Map<string, StoredDeploy>>();

async function cachedDeploy(ctx: ServiceContext, workspaceId: string, deployId: string): Promise<StoredDeploy | undefined> {
  let cache = manifests.get(ctx);
  if (!cache) manifests.set(ctx, (cache = new Map()));
  const key = `${workspaceId}/${deployId}`;
  let deploy = cache.get(key);
  if (deploy) cache.delete(key);
  else deploy = await sites(ctx).stored(workspaceId, deployId);
  if (!deploy) return undefined;
  cache.set(key, deploy);
  if (cache.size > MANIFEST_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return deploy;
}

/**
 * Claims the deploy's contents and writes those not stored yet (identical files, in this deploy or
 * an earlier one, are stored once); answers the hashes it wrote. Bounded concurrency: thousands of
 * parallel writes would exhaust file handles (fs driver).
 */
async function storeContents(ctx: ServiceContext, workspaceId: string, contents: Map<string, Uint8Array>): Promise<string[]> {
  const registry = repo(ctx, createSiteBlobRepo);
  const stored = await registry.claim(workspaceId, [...contents.keys()]);
  const missing = [...contents.keys()].filter((sha) => !stored.has(sha));
  const queue = [...missing];
  const worker = async () => {
    for (let sha = queue.pop(); sha; sha = queue.pop()) await writeBlob(ctx.blobs, siteBlobKey(workspaceId, sha), contents.get(sha)!);
  };
  await Promise.all(Array.from({ length: Math.min(16, queue.length) }, worker));
  await registry.markStored(workspaceId, missing);
  return missing;
}

/** Undoes a failed deploy's new files, while its lease proves no other deploy uses them. */
async function discard(ctx: ServiceContext, workspaceId: string, written: string[], lease: SiteLease): Promise<void> {
  await lease.check();
  await repo(ctx, createSiteBlobRepo).forget(workspaceId, written);
  await removeBlobs(ctx.blobs, written.map((sha) => siteBlobKey(workspaceId, sha)));
}

async function collect(source: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > limit) throw payloadTooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
