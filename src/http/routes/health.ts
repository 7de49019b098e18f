/**
 * Liveness and readiness for load balancers, outside tenant routing (any Host).
 */
import type { H3 } from "h3";
import type { ServiceContext } from "../../service-context.js";

export function healthRoutes(app: H3, service: ServiceContext): void {
  app.get("/healthz", () => ({ ok: true }));
  app.get("/readyz", async () => {
    const checks: Record<string, string> = {};
    try {
      await service.sql.get("SELECT 1 AS ok");
      checks.database = "ok";
    } catch {
      checks.database = "unavailable";
    }
    const ok = Object.values(checks).every((v) => v === "ok");
    return new Response(JSON.stringify({ ok, checks }), {
      status: ok ? 200 : 503,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  });
}
