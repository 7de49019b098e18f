/**
 * The client's socket address for requests that reach the service as a bare web `Request`
 * (`svc.fetch`). Bun.serve calls its handler with `(request, server)` and Deno.serve with
 * `(request, info)`; from either, the peer address is set as `request.ip`, where the node
 * adapter (srvx) puts it too, so throttles count real clients rather than one "unknown" bucket.
 */

interface BunServer {
  requestIP?(request: Request): { address?: string } | null | undefined;
}
interface DenoServeInfo {
  remoteAddr?: { hostname?: string };
}

/**
 * `request`, with `ip` set from the runtime's second handler argument when it has one.
 *
 * @example
 * Bun.serve({ fetch: (req, server) => app.fetch(withPeerAddress(req, server)) });
 */
export function withPeerAddress(request: Request, runtime: unknown): Request {
  if (!runtime || typeof runtime !== "object" || (request as Request & { ip?: unknown }).ip !== undefined) return request;
  const ip = (runtime as BunServer).requestIP?.(request)?.address ?? (runtime as DenoServeInfo).remoteAddr?.hostname;
  if (typeof ip === "string") Object.defineProperty(request, "ip", { value: ip, enumerable: true, configurable: true });
  return request;
}
