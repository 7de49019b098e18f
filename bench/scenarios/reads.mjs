/**
 * Scenarios 1, 2, 3 and 8: the bare h3 reference and the delivery reads (public, private with a
 * key, gated with an account session; 1,000 vs 100,000 entries; PostgreSQL), measured in
 * interleaved rounds (ref, public, private, … then again) so drift hits every target alike.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startChild } from "../lib/procs.mjs";
import { load, warmup } from "../lib/load.mjs";
import { row } from "../lib/table.mjs";
import { httpRequest, median, percentile } from "../lib/util.mjs";
import { createPgSchema } from "../lib/pg.mjs";

const HOST = "bench.localhost";
const CACHED = "≥ 50% of ref (cache)";
const UNCACHED = "≥ 25% of ref (no cache)";

/** Collections of the main server (scenario 2): `n` published + `n` drafts each. */
const mainSeed = (n) => ({
  slug: "bench",
  hosts: [HOST],
  collections: [
    { name: "posts", access: "public", published: n, drafts: n },
    { name: "private_posts", access: "private", published: n, drafts: n },
    { name: "gated_posts", access: "gated", published: n, drafts: n },
  ],
  key: ["entries:read"],
  account: true,
});
const scaleSeed = (small, large) => ({
  slug: "scale",
  hosts: [HOST],
  collections: [
    { name: "small", access: "public", published: small, drafts: small },
    { name: "large", access: "public", published: large, drafts: large },
  ],
});

export async function runReads(ctx, parts) {
  const { quick, tmp } = ctx;
  const n = quick ? 1_000 : 10_000;
  const [small, large] = quick ? [100, 10_000] : [1_000, 100_000];
  const servers = {};
  const flags = (name) => ctx.nodeFlagsFor(name);
  const pg = parts.scale && ctx.pgUrl ? await createPgSchema(ctx.pgUrl) : undefined;
  try {
    ctx.log(`reads: starting servers and seeding (${n.toLocaleString()}+${n.toLocaleString()} entries per collection${parts.scale ? `; scale ${small.toLocaleString()} / ${large.toLocaleString()}` : ""}${pg ? "; PostgreSQL" : ""})`);
    const starting = { ref: startChild("reference", {}, { nodeFlags: flags("reference") }) };
    if (parts.reads || parts.auth) starting.main = startChild("service", { dataDir: join(tmp, "main"), secretKey: ctx.secretKey, seed: mainSeed(n), touchCounter: true }, { nodeFlags: flags("main") });
    if (parts.scale) starting.scale = startChild("service", { dataDir: join(tmp, "scale"), secretKey: ctx.secretKey, seed: scaleSeed(small, large) }, { nodeFlags: flags("scale") });
    if (pg) starting.pg = startChild("service", { dataDir: join(tmp, "pg"), database: pg.url, secretKey: ctx.secretKey, seed: { ...scaleSeed(small, large), collections: [...scaleSeed(small, large).collections, { name: "posts", access: "public", published: n, drafts: n }], key: ["entries:write"] } }, { nodeFlags: flags("pg") });
    for (const [name, p] of Object.entries(starting)) servers[name] = await p;
    // The same schema served with the version push off (every read resolves its tenant with a
    // round trip, as before it existed): the before/after of the push, interleaved in one run.
    if (pg) servers.pgNoPush = await startChild("service", { dataDir: join(tmp, "pg-nopush"), database: pg.url, secretKey: ctx.secretKey, versionPush: false }, { nodeFlags: flags("pg") });
    // The naive handler reads the main server's database, so it starts once that is seeded.
    if (parts.reads) servers.naive = await startChild("naive", { database: join(tmp, "main", "contentsvc.db"), host: HOST, collection: "posts" }, { nodeFlags: flags("naive") });
    for (const [name, s] of Object.entries(servers)) if (s.info.seedMs) ctx.log(`  ${name}: ready in ${(s.info.seedMs / 1000).toFixed(1)} s (create + seed)`);

    const key = servers.main?.info.seeded.tokens.key;
    const account = servers.main?.info.seeded.tokens.account;
    const targets = [{ id: "ref", server: "ref", path: "/api/v1/posts", host: "localhost" }];
    if (parts.reads || parts.auth) targets.push({ id: "public", server: "main", path: "/api/v1/posts?limit=20" });
    if (parts.reads) targets.push({ id: "publicMiss", server: "main", path: "/api/v1/posts?limit=20", bust: true });
    if (parts.reads) targets.push({ id: "naive", server: "naive", path: "/api/v1/posts", headers: { authorization: `Bearer ${key}` } });
    if (parts.reads || parts.auth) targets.push({ id: "private", server: "main", path: "/api/v1/private_posts?limit=20", headers: { authorization: `Bearer ${key}` } });
    if (parts.reads) targets.push({ id: "privateMiss", server: "main", path: "/api/v1/private_posts?limit=20", headers: { authorization: `Bearer ${key}` }, bust: true });
    if (parts.reads) targets.push({ id: "gated", server: "main", path: "/api/v1/gated_posts?limit=20", headers: { authorization: `Bearer ${account}` } });
    // Scale is measured uncached (cache-busting query): the database work is what must stay flat.
    if (parts.scale) targets.push({ id: "small", server: "scale", path: "/api/v1/small?limit=20", bust: true }, { id: "large", server: "scale", path: "/api/v1/large?limit=20", bust: true });
    if (pg) targets.push({ id: "pg", server: "pg", path: "/api/v1/posts?limit=20" }, { id: "pgMiss", server: "pg", path: "/api/v1/posts?limit=20", bust: true }, { id: "pgSmall", server: "pg", path: "/api/v1/small?limit=20", bust: true }, { id: "pgLarge", server: "pg", path: "/api/v1/large?limit=20", bust: true });
    if (pg) targets.push({ id: "pgNoPush", server: "pgNoPush", path: "/api/v1/posts?limit=20" }, { id: "pgNoPushMiss", server: "pgNoPush", path: "/api/v1/posts?limit=20", bust: true });

    // The key's first use is its probe (then its warm-up): the last_used_at allowance counts from there.
    let keyedStart;
    // Probe: every target must answer 200 with 20 items; one that does not is reported n/a.
    for (const t of targets) {
      if (t.id === "private") keyedStart ??= Date.now();
      t.opts = { port: servers[t.server].info.port, path: t.path, host: t.host ?? HOST, headers: t.headers ?? {}, bust: t.bust, connections: ctx.connections, duration: ctx.duration };
      const res = await httpRequest(t.opts.port, t.path, { host: t.opts.host, headers: t.opts.headers });
      const items = res.status === 200 ? JSON.parse(res.body).data?.length : 0;
      if (res.status !== 200 || items !== 20) t.skip = `probe answered ${res.status} ${res.body.slice(0, 160)}`;
      t.runs = [];
    }
    const live = targets.filter((t) => !t.skip);
    for (const t of live) await warmup(t.opts);
    for (let round = 1; round <= ctx.runs; round++) {
      for (const t of live) {
        const cpu0 = cpuTime(servers[t.server].pid);
        const result = await load(t.opts);
        const cpu = cpuTime(servers[t.server].pid);
        result.cpuUs = cpu0 !== undefined && cpu !== undefined && result.total > 0 ? (cpu - cpu0) / result.total : undefined;
        t.runs.push(result);
        await settle(t.opts.port);
      }
      ctx.log(`  round ${round}/${ctx.runs}: ${live.map((t) => `${t.id} ${Math.round(t.runs.at(-1).rps)}`).join(", ")} req/s`);
    }
    const keyedSpanMs = keyedStart ? Date.now() - keyedStart : 0;
    const by = Object.fromEntries(targets.map((t) => [t.id, t]));
    const rps = (id) => (by[id] && !by[id].skip ? median(by[id].runs.map((r) => r.rps)) : undefined);
    const runsOf = (id) => by[id]?.runs ?? [];
    const cpuUs = (id) => (by[id] && !by[id].skip ? median(by[id].runs.map((r) => r.cpuUs)) : undefined);
    for (const t of live) {
      const bad = t.runs.reduce((s, r) => s + r.non2xx + r.errors, 0);
      if (bad) ctx.log(`  WARNING ${t.id}: ${bad} non-2xx/errors during the runs (${JSON.stringify(t.runs.map((r) => r.codes))})`);
    }
    const ref = rps("ref");
    ctx.refRps = ref;
    const rows = [row({ scenario: "1 reference", figure: "bare h3 v2, 20-item JSON", value: ref, unit: "req/s", runs: runsOf("ref") })];
    if (parts.reads || parts.auth) {
      rows.push(readRow("2 delivery read", `public, ${n.toLocaleString()} published, cached`, rps("public"), ref, runsOf("public"), 0.5));
      rows.push(readRow("2 delivery read", "private, key (entries:read), cached", rps("private"), ref, runsOf("private"), 0.5));
    }
    if (parts.reads) {
      rows.push(readRow("2 delivery read", "public, cache miss (busting query)", rps("publicMiss"), ref, runsOf("publicMiss"), 0.25));
      rows.push(readRow("2 delivery read", "private, key, cache miss", rps("privateMiss"), ref, runsOf("privateMiss"), 0.25));
      rows.push(row({ scenario: "2 delivery read", figure: "naive handler (h3 + better-sqlite3 + key hash), 20 rows", value: rps("naive"), unit: "req/s", ref, refLabel: "h3", runs: runsOf("naive") }));
      if (rps("publicMiss") && rps("naive")) {
        const ratio = rps("publicMiss") / rps("naive");
        rows.push(row({ scenario: "2 delivery read", figure: "public, cache miss vs naive handler", value: rps("publicMiss"), unit: "req/s", ref: rps("naive"), refLabel: "naive", ratio, target: "≥ 1.5× naive", met: ratio >= 1.5 }));
        const ofRef = rps("publicMiss") / ref;
        rows.push(row({ scenario: "2 delivery read", figure: "public, cache miss, round two target", value: rps("publicMiss"), unit: "req/s", ref, refLabel: "h3", ratio: ofRef, target: "≥ 40% of ref (no cache)", met: ofRef >= 0.4 }));
      }
      // Server CPU per request (from /proc): the figure that holds on a busy machine.
      if (cpuUs("publicMiss") && cpuUs("naive")) {
        for (const id of ["ref", "naive", "publicMiss", "public"]) {
          rows.push(row({ scenario: "2 delivery read", figure: `server CPU per request: ${{ ref: "bare h3", naive: "naive handler", publicMiss: "public, cache miss", public: "public, cached" }[id]}`, value: cpuUs(id), unit: "µs" }));
        }
        const ratio = cpuUs("naive") / cpuUs("publicMiss");
        rows.push(row({ scenario: "2 delivery read", figure: "public, cache miss vs naive handler, by server CPU", value: cpuUs("publicMiss"), unit: "µs", ref: cpuUs("naive"), refLabel: "naive", ratio, target: "≥ 1.5× naive", met: ratio >= 1.5 }));
        const ofRef = cpuUs("ref") / cpuUs("publicMiss");
        rows.push(row({ scenario: "2 delivery read", figure: "public, cache miss vs bare h3, by server CPU", value: cpuUs("publicMiss"), unit: "µs", ref: cpuUs("ref"), refLabel: "h3", ratio: ofRef, target: "≥ 40% of ref (no cache)", met: ofRef >= 0.4 }));
      }
      rows.push(
        by.gated.skip
          ? row({ scenario: "2 delivery read", figure: "gated, account session", note: `n/a (not built yet): ${by.gated.skip}` })
          : readRow("2 delivery read", "gated, account session, cached", rps("gated"), ref, runsOf("gated"), 0.5),
      );
    }
    if (parts.auth || parts.reads) {
      for (const [priv, pub, label] of [["private", "public", "cached"], ["privateMiss", "publicMiss", "cache miss"]]) {
        if (!rps(priv) || !rps(pub)) continue;
        const ratio = rps(priv) / rps(pub);
        rows.push(row({ scenario: "3 auth cost", figure: `private+key vs public, ${label}`, value: rps(priv), unit: "req/s", ref: rps(pub), refLabel: "public", ratio, target: "≤ 5% slower", met: ratio >= 0.95 }));
      }
      // The same by server CPU per request: req/s of two targets measured seconds apart move with
      // the machine, and at tens of thousands of req/s one µs of server work is a visible share of
      // them (measured: docs/benchmarks.md, "Figures behind code comments").
      for (const [priv, pub, label] of [["private", "public", "cached"], ["privateMiss", "publicMiss", "cache miss"]]) {
        if (!cpuUs(priv) || !cpuUs(pub)) continue;
        const ratio = cpuUs(pub) / cpuUs(priv);
        rows.push(row({ scenario: "3 auth cost", figure: `private+key vs public, ${label}, by server CPU`, value: cpuUs(priv), unit: "µs", ref: cpuUs(pub), refLabel: "public", ratio, target: "≤ 5% slower", met: ratio >= 0.95 }));
      }
      const touches = await servers.main.call("touches");
      const allowed = Math.floor(keyedSpanMs / 60_000) + 1;
      rows.push(row({
        scenario: "3 auth cost",
        figure: `last_used_at writes, 1 key, ${Math.round(keyedSpanMs / 1000)} s keyed load`,
        value: touches?.length,
        target: `≤ ${allowed} (1/key/min)`,
        met: touches ? touches.length <= allowed : null,
        note: touches ? "" : "not counted (trigger is SQLite-only)",
      }));
    }
    if (parts.scale) {
      rows.push(readRow("8 scale", `SQLite ${small.toLocaleString()} published, cache miss`, rps("small"), ref, runsOf("small"), 0.25));
      rows.push(row({ scenario: "8 scale", figure: `SQLite ${large.toLocaleString()} vs ${small.toLocaleString()}, cache miss`, value: rps("large"), unit: "req/s", ref: rps("small"), refLabel: `${small.toLocaleString()}`, target: "flat (≥ 90%)", met: rps("large") / rps("small") >= 0.9, runs: runsOf("large") }));
      if (pg) {
        rows.push(readRow("8 scale", `PostgreSQL public, ${n.toLocaleString()}, cached`, rps("pg"), ref, runsOf("pg"), 0.5));
        rows.push(readRow("8 scale", `PostgreSQL public, ${n.toLocaleString()}, cache miss`, rps("pgMiss"), ref, runsOf("pgMiss"), 0.25));
        rows.push(row({ scenario: "8 scale", figure: `PostgreSQL ${large.toLocaleString()} vs ${small.toLocaleString()}, cache miss`, value: rps("pgLarge"), unit: "req/s", ref: rps("pgSmall"), refLabel: `${small.toLocaleString()}`, target: "flat (≥ 90%)", met: rps("pgLarge") / rps("pgSmall") >= 0.9, runs: [...runsOf("pgSmall"), ...runsOf("pgLarge")] }));
        rows.push(readRow("8 scale", `PostgreSQL public, ${n.toLocaleString()}, cached, push off`, rps("pgNoPush"), ref, runsOf("pgNoPush"), 0.5));
        rows.push(readRow("8 scale", `PostgreSQL public, ${n.toLocaleString()}, cache miss, push off`, rps("pgNoPushMiss"), ref, runsOf("pgNoPushMiss"), 0.25));
        for (const id of ["pg", "pgNoPush", "pgMiss", "pgNoPushMiss"]) {
          if (by[id]?.runs.some((r) => r.cpuUs !== undefined)) rows.push(row({ scenario: "8 scale", figure: `PostgreSQL server CPU per request, ${id}`, value: median(by[id].runs.map((r) => r.cpuUs)), unit: "µs", note: "node process only (PostgreSQL's own CPU not counted)" }));
        }
        const lags = await crossInstanceStaleness(servers.pgNoPush.info.port, servers.pg.info.port, servers.pg.info.seeded.tokens.key, quick ? 50 : 200);
        for (const p of [50, 99]) rows.push(row({ scenario: "8 scale", figure: `PostgreSQL cross-instance staleness p${p} (write on one, read on another)`, value: percentile(lags, p), unit: "ms", target: "bounded, documented", note: `${lags.length} writes; includes the polling read` }));
      } else {
        rows.push(row({ scenario: "8 scale", figure: "PostgreSQL", note: "skipped: set SVC_BENCH_DATABASE_URL (or SVC_TEST_DATABASE_URL)" }));
      }
    }
    return rows;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    await pg?.drop();
  }
}

/**
 * Writes `samples` entries through the server on `writerPort`, each time polling the public list
 * on `readerPort` (its tenant and response cached) until it shows the new total: the time from
 * the writer's answer to the first fresh read, in ms.
 */
async function crossInstanceStaleness(writerPort, readerPort, key, samples) {
  const path = "/api/v1/small?limit=1";
  const totalOn = async () => JSON.parse((await httpRequest(readerPort, path, { host: HOST })).body).meta.total;
  const lags = [];
  for (let i = 0; i < samples; i++) {
    const was = await totalOn();
    await totalOn();
    const res = await httpRequest(writerPort, "/api/dashboard/collections/small/entries", { method: "POST", host: HOST, headers: { authorization: `Bearer ${key}` }, json: { title: `lag ${i}`, _status: "published" } });
    if (res.status !== 201) throw new Error(`staleness write answered ${res.status} ${res.body.slice(0, 200)}`);
    const t0 = performance.now();
    const deadline = Date.now() + 10_000;
    while ((await totalOn()) !== was + 1) if (Date.now() > deadline) throw new Error("staleness: the write never showed on the other instance");
    lags.push(performance.now() - t0);
  }
  return lags;
}

/**
 * Waits until the server answers /readyz (a database round trip) within 20 ms: requests that
 * autocannon abandoned at the end of a slow run (PostgreSQL at 100,000 entries) must not steal
 * time from the next target, which is the reference at the start of every round.
 */
async function settle(port) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const t0 = performance.now();
    const res = await httpRequest(port, "/readyz").catch(() => undefined);
    if (res && performance.now() - t0 < 20) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** User + system CPU time of a process so far, in µs (Linux /proc; undefined elsewhere). */
function cpuTime(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

function readRow(scenario, figure, value, ref, runs, min) {
  return row({ scenario, figure, value, unit: "req/s", ref, refLabel: "h3", target: min === 0.5 ? CACHED : UNCACHED, met: value / ref >= min, runs });
}
