/**
 * Static site use cases (spec 2.2 `sites`): deploy an archive as an immutable deploy and make it
 * live atomically, roll back to the previous or a named deploy, and resolve a request path to a
 * file of the live deploy. Shared by the HTTP routes and `svc site`.
 */
import { createHash, randomUUID } from "node:crypto";
import { badRequest, conflict, payloadTooLarge } from "../core/errors.js";
import { contentTypeFor } from "../core/content-types.js";
import { repo } from "../storage/context.js";
import type { ServiceContext } from "./context.js";
import { readBlob, removeBlobs, writeBlob } from "../storage/blob-bytes.js";
import { createSiteRepo, siteBlobKey, type DeployRecord, type Manifest, type ManifestFile } from "../storage/sites.js";
import { extractSiteArchive, type ArchiveLimits } from "./site-archive.js";

/** What a deploy or rollback answers: the now-live deploy and the one it replaced. */
export interface LiveDeploy extends DeployRecord {
  previous_deploy_id: string | null;
}

const sites = (ctx: ServiceContext) => repo(ctx, createSiteRepo);

/**
 * Deploys a tar(.gz) archive and makes it live. `archive` is the whole body, or a stream counted
 * against uploadLimit (413 past it).
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
  const files = await extractSiteArchive(bytes, { maxBytes: ctx.options.uploadLimit, ...limits });
  if (files.size === 0) throw badRequest("The archive contains no files");

  const id = randomUUID();
  const manifest: Manifest = {};
  const blobs = new Map<string, Uint8Array>();
  let size = 0;
  for (const [path, data] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const sha256 = createHash("sha256").update(data).digest("hex");
    manifest[path] = { size: data.byteLength, sha256, content_type: contentTypeFor(path) };
    blobs.set(siteBlobKey(workspaceId, id, sha256), data);
    size += data.byteLength;
  }
  try {
    await writeAll(ctx, blobs);
  } catch (error) {
    await removeBlobs(ctx.blobs, [...blobs.keys()]);
    throw error;
  }
  const createdAt = new Date(ctx.now()).toISOString();
  let pointer;
  try {
    pointer = await sites(ctx).insertLive(workspaceId, { id, manifest, size, createdAt });
  } catch (error) {
    await removeBlobs(ctx.blobs, [...blobs.keys()]);
    throw error;
  }
  return { id, file_count: files.size, size, created_at: createdAt, live: true, previous_deploy_id: pointer.previous_deploy_id };
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
  const live = await sites(ctx).live(workspaceId);
  if (!live) return { deployed: false };
  const manifest = await cachedManifest(ctx, workspaceId, live.deploy_id);
  const hit = candidates.find((p) => Object.hasOwn(manifest, p));
  const path = hit ?? (Object.hasOwn(manifest, "404.html") ? "404.html" : undefined);
  if (!path) return { deployed: true, notFound: true };
  const entry = manifest[path]!;
  const bytes = await readBlob(ctx.blobs, siteBlobKey(workspaceId, live.deploy_id, entry.sha256));
  if (!bytes) throw new Error(`contentsvc: deploy ${live.deploy_id} is missing the blob of ${path}`);
  return { deployed: true, file: { path, ...entry, bytes }, notFound: hit === undefined };
}

// Deploys are immutable, so a manifest cached by deploy id is never stale; the live pointer itself
// is never cached. Bounded: the least recently used manifest is dropped first.
const MANIFEST_CACHE_SIZE = 32;
const manifests = new WeakMap<ServiceContext, Map<string, Manifest>>();

async function cachedManifest(ctx: ServiceContext, workspaceId: string, deployId: string): Promise<Manifest> {
  let cache = manifests.get(ctx);
  if (!cache) manifests.set(ctx, (cache = new Map()));
  const key = `${workspaceId}/${deployId}`;
  let manifest = cache.get(key);
  if (manifest) cache.delete(key);
  else manifest = (await sites(ctx).manifest(workspaceId, deployId)) ?? {};
  cache.set(key, manifest);
  if (cache.size > MANIFEST_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return manifest;
}

/** Writes with bounded concurrency: thousands of parallel writes would exhaust file handles (fs driver). */
async function writeAll(ctx: ServiceContext, blobs: Map<string, Uint8Array>): Promise<void> {
  const queue = [...blobs];
  const worker = async () => {
    for (let next = queue.pop(); next; next = queue.pop()) await writeBlob(ctx.blobs, next[0], next[1]);
  };
  await Promise.all(Array.from({ length: Math.min(16, queue.length) }, worker));
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
