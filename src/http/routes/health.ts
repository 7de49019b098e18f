/**
 * Liveness and readiness for load balancers, outside tenant routing (any Host). /readyz is 503
 * while the database, or Redis when configured, cannot be reached (docs/scaling.md).
 */
import type { H3 } from "h3";
import type { ServiceContext } from "../../services/context.js";

/** A probe answers within this bound even when a dependency hangs (e.g. a blackholed host). */
const CHECK_TIMEOUT_MS = 2000;

export function healthRoutes(app: H3, service: ServiceContext): void {
  app.get("/healthz", () => ({ ok: true }));
  app.get("/readyz", async () => {
    const checks: Record<string, string> = {};
    const probes = [check(checks, "database", () => service.sql.get("SELECT 1 AS ok"))];
    const ping = service.shared.ping?.bind(service.shared);
    if (ping) probes.push(check(checks, "redis", ping));
    await Promise.all(probes);
    const ok = Object.values(checks).every((v) => v === "ok");
    return new Response(JSON.stringify({ ok, checks }), {
      status: ok ? 200 : 503,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  });
}

async function check(checks: Record<string, string>, name: string, probe: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS)));
  try {
    await Promise.race([probe(), late]);
    checks[name] = "ok";
  } catch {
    checks[name] = "unavailable";
  } finally {
    clearTimeout(timer);
  }
}
