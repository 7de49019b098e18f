/**
 * The PostgreSQL LISTEN connection behind the version push (storage/postgres.ts): notifications
 * arrive; a connection that goes silent without being closed (a network fault, here a proxy that
 * stops forwarding) is given up within two heartbeats; it is opened again once the network is back.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../../src/storage/postgres.js";
import type { Sql } from "../../src/storage/sql.js";
import { PG_URL } from "../helpers/database.js";

/** A TCP proxy to PostgreSQL that can stop forwarding while keeping every socket open. */
async function startProxy(target: URL) {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.on("data", (chunk) => {
        if (!frozen) to.write(chunk);
      });
      from.on("error", () => to.destroy());
      from.on("close", () => (to.destroy(), sockets.delete(from)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: (value: boolean) => (frozen = value),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.runIf(PG_URL)("LISTEN connection on PostgreSQL", () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let sql: Sql;
  beforeAll(async () => {
    proxy = await startProxy(new URL(PG_URL!));
    const url = new URL(PG_URL!);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    sql = await openPostgres(url.toString(), { max: 1 });
  });
  afterAll(async () => {
    await sql?.close();
    await proxy?.close();
  });

  it("delivers notifications, gives up a silent connection within two heartbeats and listens again", async () => {
    const channel = `listen_test_${Date.now()}`;
    const states: [boolean, number][] = [];
    const messages: string[] = [];
    const stop = sql.listen!(channel, { message: (p) => messages.push(p), state: (up) => states.push([up, Date.now()]) });
    const waitFor = async (ok: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
      return ok();
    };
    try {
      expect(await waitFor(() => states.some(([up]) => up), 5000)).toBe(true);
      const other = new pg.Client({ connectionString: PG_URL });
      await other.connect();
      await other.query("SELECT pg_notify($1, 'w:abc')", [channel]);
      await other.end();
      expect(await waitFor(() => messages.includes("w:abc"), 2000)).toBe(true);
      expect(messages.some((m) => m.startsWith("beat:"))).toBe(false); // heartbeats stay inside

      proxy.freeze(true);
      const frozenAt = Date.now();
      expect(await waitFor(() => states.at(-1)![0] === false, 5000)).toBe(true);
      expect(states.at(-1)![1] - frozenAt).toBeLessThan(3000);

      proxy.freeze(false);
      expect(await waitFor(() => states.at(-1)![0] === true, 10_000)).toBe(true);
    } finally {
      await stop();
    }
  });
});
