/**
 * How many site deploys one service unpacks at a time (the `deployConcurrency` option). Each holds
 * up to one write batch or one file in memory (site-writer.ts) and keeps zlib busy, so this count
 * is what bounds deploys as a whole. A deploy past it is refused at once with 503 and Retry-After
 * before anything of its body is read, rather than queued with its connection and upload held open.
 */
import { ServiceError } from "../core/errors.js";
import type { ServiceContext } from "./context.js";

/** Seconds a refused deploy is told to wait: about what a typical deploy takes. */
export const DEPLOY_RETRY_AFTER_S = 5;

const running = new WeakMap<ServiceContext, number>();

/**
 * Takes a deploy slot of this service; answers its release (idempotent). 503 when all are taken.
 *
 * @example
 * const release = takeDeploySlot(ctx);
 * try { … } finally { release(); }
 */
export function takeDeploySlot(ctx: ServiceContext): () => void {
  const cap = ctx.options.deployConcurrency;
  const n = running.get(ctx) ?? 0;
  if (n >= cap) {
    throw new ServiceError(
      503,
      "unavailable",
      `This server is already unpacking ${cap} site deploy${cap === 1 ? "" : "s"} (its deployConcurrency); retry in ${DEPLOY_RETRY_AFTER_S} seconds`,
      { limit: cap, retry_after: DEPLOY_RETRY_AFTER_S },
      { "retry-after": String(DEPLOY_RETRY_AFTER_S) },
    );
  }
  running.set(ctx, n + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running.set(ctx, (running.get(ctx) ?? 1) - 1);
  };
}
