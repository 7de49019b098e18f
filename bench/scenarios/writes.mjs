/**
 * Scenario 4: entry creates/s and updates/s over HTTP (dashboard API, owner session) with one
 * webhook subscribed to content.created and content.updated, delivering to the local HTTPS
 * receiver (a child on the load core). Between runs the service's dispatcher is drained, so
 * deliveries of one run never slow the next.
 */
import { join } from "node:path";
import { LOAD_CORE, startChild } from "../lib/procs.mjs";
import { load, warmup } from "../lib/load.mjs";
import { row } from "../lib/table.mjs";
import { httpJson, median, sleep } from "../lib/util.mjs";
import { entryData } from "../lib/shapes.mjs";

const HOST = "writes.localhost";
const COLLECTION = "wposts";

export async function runWrites(ctx) {
  const receiver = await startChild("receiver", {}, { core: LOAD_CORE });
  let server;
  try {
    server = await startChild(
      "service",
      {
        dataDir: join(ctx.tmp, "writes"),
        secretKey: ctx.secretKey,
        webhookCa: receiver.info.ca,
        seed: { slug: "writes", hosts: [HOST], collections: [{ name: COLLECTION, access: "private", published: 0, drafts: 1000, keepIds: 1000 }], owner: true },
      },
      { nodeFlags: ctx.nodeFlagsFor("writes") },
    );
    const { port } = server.info;
    const { tokens, collections } = server.info.seeded;
    const auth = { authorization: `Bearer ${tokens.owner}`, "content-type": "application/json" };
    await httpJson(port, "/api/dashboard/webhooks", {
      method: "POST",
      host: HOST,
      headers: { authorization: auth.authorization },
      json: { url: `https://127.0.0.1:${receiver.info.port}/hook`, events: ["content.created", "content.updated"] },
    });
    const base = { port, host: HOST, headers: auth, connections: ctx.writeConnections, duration: ctx.duration };
    const create = { ...base, method: "POST", path: `/api/dashboard/collections/${COLLECTION}/entries`, body: { ...entryData(1), _status: "draft" } };
    const ids = collections[COLLECTION].entryIds;
    let next = 0;
    const update = {
      ...base,
      path: `/api/dashboard/collections/${COLLECTION}/entries/${ids[0]}`,
      requests: [{ method: "PATCH", body: JSON.stringify({ title: "Updated title", views: 42 }), setupRequest: (req) => ({ ...req, path: `/api/dashboard/collections/${COLLECTION}/entries/${ids[next++ % ids.length]}` }) }],
    };
    const drain = async () => {
      for (let i = 0; i < 400; i++) {
        const s = await server.call("webhookStats");
        if (s.pending === 0 && s.inFlight === 0) return s;
        await sleep(50);
      }
      return server.call("webhookStats");
    };

    await warmup(create);
    await warmup(update);
    await sleep(700); // updates coalesce for 0.5 s
    await drain();
    const creates = [];
    const updates = [];
    let createdTotal = 0;
    let deliveredForCreates = 0;
    for (let round = 1; round <= ctx.runs; round++) {
      await receiver.call("reset");
      const c = await load(create);
      createdTotal += c.codes["201"] ?? 0;
      await drain();
      deliveredForCreates += (await receiver.call("stats")).count;
      creates.push(c);
      const u = await load(update);
      updates.push(u);
      await sleep(700);
      await drain();
      ctx.log(`  round ${round}/${ctx.runs}: creates ${Math.round(c.rps)}/s, updates ${Math.round(u.rps)}/s (non-2xx ${c.non2xx + u.non2xx})`);
    }
    const stats = await server.call("webhookStats");
    const ref = ctx.refRps;
    const refLabel = ref ? "h3 GET" : undefined;
    return [
      row({ scenario: "4 writes", figure: "entry creates/s, 1 webhook", value: median(creates.map((r) => r.rps)), unit: "req/s", ref, refLabel, runs: creates }),
      row({ scenario: "4 writes", figure: "entry updates/s, 1 webhook", value: median(updates.map((r) => r.rps)), unit: "req/s", ref, refLabel, runs: updates }),
      row({
        scenario: "4 writes",
        figure: "deliveries received for creates",
        value: deliveredForCreates,
        ref: createdTotal,
        refLabel: "created",
        target: "all",
        met: deliveredForCreates >= createdTotal,
        note: stats.failed || stats.dropped ? `dispatcher reported ${stats.failed} failed, ${stats.dropped} dropped` : "",
      }),
    ];
  } finally {
    await server?.stop();
    await receiver.stop();
  }
}
