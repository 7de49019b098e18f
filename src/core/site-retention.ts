/**
 * Which site deploys a workspace keeps after a new one goes live: the new deploy, then the one
 * it replaced (the natural rollback target), then the others newest first, while fewer than
 * `keep` are kept and the distinct bytes they store together stay within `quota`. The first
 * deploy that does not fit is dropped with every older one, so what is kept is always the most
 * recent history. Pure.
 *
 * @example
 * planRetention(freshBlobs, [prev, older], { keep: 10, quota: 500 * 2 ** 20 }, prev.id);
 * // { keep: [prev.id, older.id], drop: [], bytes: 1234 }
 */

/** A deploy already stored. */
export interface RetentionCandidate {
  id: string;
  /** Its distinct contents (sha256 → bytes) in shared storage; absent for a deploy that keeps its own copies. */
  blobs?: Map<string, number>;
  /** Sum of its file sizes (what a deploy with its own copies occupies). */
  size: number;
}

export interface RetentionLimits {
  /** Deploys kept, the new one included. */
  keep: number;
  /** Largest sum of distinct stored bytes over the kept deploys. */
  quota: number;
}

export interface RetentionPlan {
  /** Ids kept besides the new deploy, in the order they were considered. */
  keep: string[];
  drop: string[];
  /** Distinct bytes stored by the new deploy and the kept ones. */
  bytes: number;
}

/** Distinct bytes of a set of contents. */
export const distinctBytes = (blobs: Map<string, number>) => [...blobs.values()].reduce((a, b) => a + b, 0);

/** Plans retention; `others` newest first, `previousId` the deploy the new one replaced. */
export function planRetention(fresh: Map<string, number>, others: RetentionCandidate[], limits: RetentionLimits, previousId?: string | null): RetentionPlan {
  const counted = new Set(fresh.keys());
  let bytes = distinctBytes(fresh);
  const ordered = [...others.filter((d) => d.id === previousId), ...others.filter((d) => d.id !== previousId)];
  const plan: RetentionPlan = { keep: [], drop: [], bytes };
  let full = false;
  for (const d of ordered) {
    const added = d.blobs ? [...d.blobs].reduce((sum, [sha, size]) => sum + (counted.has(sha) ? 0 : size), 0) : d.size;
    full ||= plan.keep.length + 1 >= limits.keep || bytes + added > limits.quota;
    if (full) {
      plan.drop.push(d.id);
      continue;
    }
    plan.keep.push(d.id);
    bytes += added;
    for (const sha of d.blobs?.keys() ?? []) counted.add(sha);
  }
  plan.bytes = bytes;
  return plan;
}
