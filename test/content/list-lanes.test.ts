/**
 * Workspace lanes of list reads (services/list-reads.ts): reads of one workspace beyond the
 * lane's width wait for each other, never in front of another workspace's; at most
 * MAX_QUEUED_READS wait, the next is a 503. Reads are held open by the test, so what runs when
 * is observed directly, without a clock.
 */
import { describe, expect, it } from "vitest";
import { LANE_WIDTH, listRead, MAX_QUEUED_READS } from "../../src/services/list-reads.js";
import type { ServiceContext } from "../../src/services/context.js";
import type { Sql } from "../../src/storage/sql.js";

/** A context whose database is never queried: the reads below only wait on promises. */
const contextOf = (dialect: Sql["dialect"]) =>
  ({ sql: { dialect } as Sql, options: { queryBudgetMs: 1000 }, caches: { readLanes: new Map() } }) as unknown as ServiceContext;

function heldRead() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const started = { value: false };
  return { started, release, read: async () => ((started.value = true), await held, "done") };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

describe.each(["sqlite", "postgresql"] as const)("list read lanes on %s", (dialect) => {
  it(`runs ${LANE_WIDTH[dialect]} read(s) of a workspace at once; another workspace's read starts at once`, async () => {
    const ctx = contextOf(dialect);
    const busy = Array.from({ length: LANE_WIDTH[dialect] + 2 }, heldRead);
    const results = busy.map((r) => listRead(ctx, "ws-a", r.read));
    await settle();
    expect(busy.map((r) => r.started.value)).toEqual(busy.map((_, i) => i < LANE_WIDTH[dialect]));
    const other = heldRead();
    const otherResult = listRead(ctx, "ws-b", other.read);
    await settle();
    expect(other.started.value).toBe(true);
    other.release();
    expect(await otherResult).toBe("done");
    // Ending one read of the busy workspace starts exactly the next one waiting.
    busy[0]!.release();
    await settle();
    expect(busy.map((r) => r.started.value)).toEqual(busy.map((_, i) => i <= LANE_WIDTH[dialect]));
    for (const r of busy) r.release();
    expect(await Promise.all(results)).toEqual(busy.map(() => "done"));
  });

  it(`queues at most ${MAX_QUEUED_READS} reads of a workspace; the next is a 503`, async () => {
    const ctx = contextOf(dialect);
    const held = Array.from({ length: LANE_WIDTH[dialect] + MAX_QUEUED_READS }, heldRead);
    const results = held.map((r) => listRead(ctx, "ws-a", r.read));
    await expect(listRead(ctx, "ws-a", async () => "late")).rejects.toMatchObject({ status: 503, message: expect.stringContaining(`(${MAX_QUEUED_READS})`) });
    await expect(listRead(ctx, "ws-b", async () => "other")).resolves.toBe("other");
    for (const r of held) r.release();
    await Promise.all(results);
    await expect(listRead(ctx, "ws-a", async () => "again")).resolves.toBe("again");
  });
});
