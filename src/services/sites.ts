/**
 * Static site use cases (spec 2.2 `sites`): deploy an archive as an immutable deploy and make it
 * live atomically, roll back to the previous or a named deploy, and resolve a request path to a
 * file of the live deploy. Shared by the HTTP routes and `svc site`.
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict } from "../core/errors.js";
import type { ServiceContext } from "./context.js";
import { readBlob } from "../storage/blob-bytes.js";
import { legacySiteBlobKey, siteBlobKey } from "../storage/site-blobs.js";
import { acquireSiteLease, type SiteLease } from "../storage/site-lease.js";
import type { DeployRecord, ManifestFile, StoredDeploy } from "../storage/sites.js";
import { takeDeploySlot } from "./deploy-slots.js";
import { unpackSiteArchive, type ArchiveLimits } from "./site-archive.js";
import { pruneSite } from "./site-retention.js";
import { createSiteWriter } from "./site-writer.js";

export type { DeployRecord };

/** What a deploy or rollback answers: the now-live deploy and the one it replaced. */
export interface LiveDeploy extends DeployRecord {
  previous_deploy_id: string | null;
}

/**
 * Deploys a tar(.gz) archive and makes it live, then prunes old deploys and unreferenced files.
 * `archive` is the whole body, or a stream read as it arrives (counted against uploadLimit, 413
 * past it). The workspace's site lease is taken before anything is read: a second deploy of the
 * same workspace waits (409 if the first takes too long) without inflating anything meanwhile; then
 * a deploy slot of this service (503 with Retry-After when all are busy). Files are stored as they
 * are unpacked, once per workspace whatever the deploy; a failure removes what this deploy stored
 * and leaves the live site untouched.
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
  const lease = await acquireSiteLease(ctx.sql, workspaceId);
  try {
    const staged = await stage(ctx, workspaceId, archive, lease, { maxBytes: ctx.options.uploadLimit, maxEntries: ctx.options.siteMaxFiles, ...limits });
    const { manifest, blobs, size } = staged;
    const id = randomUUID();
    const createdAt = new Date(ctx.now()).toISOString();
    let pointer;
    try {
      pointer = await ctx.db.sites.insertLive(workspaceId, { id, manifest, size, createdAt }, (tx) => lease.check(tx));
    } catch (error) {
      await staged.writer.discard(lease).catch(() => {});
      throw error;
    }
    // The deploy is live whatever happens next; a failed prune is retried by the next deploy.
    await pruneSite(ctx, workspaceId, { id, blobs, previousId: pointer.previous_deploy_id }, lease).catch((error: unknown) =>
      ctx.logger.warn(`pruning the site of workspace ${workspaceId} failed:`, error),
    );
    return { id, file_count: Object.keys(manifest).length, size, created_at: createdAt, live: true, previous_deploy_id: pointer.previous_deploy_id };
  } finally {
    await lease.release().catch(() => {});
  }
}

/** Unpacks and stores the archive in a deploy slot; on failure, removes what it stored. */
async function stage(ctx: ServiceContext, workspaceId: string, archive: Uint8Array | AsyncIterable<Uint8Array>, lease: SiteLease, limits: ArchiveLimits) {
  const release = takeDeploySlot(ctx);
  const writer = createSiteWriter(ctx, workspaceId);
  try {
    const files = await unpackSiteArchive(archive, limits, (path, file) => writer.add(path, file));
    if (files === 0) throw badRequest("The archive contains no files");
    return { ...(await writer.finish()), writer };
  } catch (error) {
    await writer.discard(lease).catch(() => {});
    throw error;
  } finally {
    release();
  }
}

/**
 * Makes the previous deploy live again, or the named one. Instant: only the pointer moves, and
 * the pointer is read on every request, so the very next request serves the target.
 */
export async function rollbackSite(ctx: ServiceContext, workspaceId: string, deployId?: string): Promise<LiveDeploy> {
  const repoS = ctx.db.sites;
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
export const listDeploys = (ctx: ServiceContext, workspaceId: string, page = { limit: 50, offset: 0 }) => ctx.db.sites.list(workspaceId, page);

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
    const live = await ctx.db.sites.live(workspaceId);
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
  else deploy = await ctx.db.sites.stored(workspaceId, deployId);
  if (!deploy) return undefined;
  cache.set(key, deploy);
  if (cache.size > MANIFEST_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return deploy;
}
