/**
 * After a deploy goes live: drops the deploys past `keepDeploys` or the site quota
 * (core/site-retention.ts decides which), then deletes the files no remaining deploy references.
 * Runs under the workspace's site lease, so no other deploy claims or writes a shared file
 * meanwhile; the lease is checked again right before anything is deleted.
 */
import { planRetention } from "../core/site-retention.js";
import type { ServiceContext } from "./context.js";
import { removeBlobs } from "../storage/blob-bytes.js";
import { legacySiteBlobKey, siteBlobKey } from "../storage/site-blobs.js";
import type { SiteLease } from "../storage/site-lease.js";
import type { Manifest } from "../storage/sites.js";

/** A manifest's distinct contents, sha256 → bytes. */
export const contentsOf = (manifest: Manifest) => new Map(Object.values(manifest).map((f) => [f.sha256, f.size]));

/**
 * Prunes the workspace's deploys around the one just made live (`fresh`, whose contents are
 * `freshBlobs`) and collects unreferenced files. Answers the ids of the deploys deleted.
 */
export async function pruneSite(
  ctx: ServiceContext,
  workspaceId: string,
  fresh: { id: string; blobs: Map<string, number>; previousId: string | null },
  lease: SiteLease,
): Promise<string[]> {
  const sites = ctx.db.sites;
  const blobs = ctx.db.siteBlobs;
  const all = await sites.allStored(workspaceId);
  const others = all
    .filter((d) => d.id !== fresh.id)
    .map((d) => ({ id: d.id, size: d.size, ...(d.layout === 2 && { blobs: contentsOf(d.manifest) }) }));
  const plan = planRetention(fresh.blobs, others, { keep: ctx.options.keepDeploys, quota: ctx.options.siteQuota }, fresh.previousId);
  await lease.check();
  const removed = new Set(await sites.remove(workspaceId, plan.drop));

  const keys = new Set<string>();
  const referenced = new Set<string>();
  for (const d of all) {
    for (const f of Object.values(d.manifest)) {
      if (!removed.has(d.id)) {
        if (d.layout === 2) referenced.add(f.sha256);
      } else if (d.layout === 1) keys.add(legacySiteBlobKey(workspaceId, d.id, f.sha256));
    }
  }
  const garbage = (await blobs.all(workspaceId)).filter((sha) => !referenced.has(sha));
  await lease.check();
  // Rows first: a crash between the two leaves an orphan file, never a row naming a missing one.
  await blobs.forget(workspaceId, garbage);
  for (const sha of garbage) keys.add(siteBlobKey(workspaceId, sha));
  const failure = await removeBlobs(ctx.blobs, [...keys]);
  if (failure) ctx.logger.warn(`site files of workspace ${workspaceId} could not all be deleted:`, failure.message);
  return [...removed];
}
