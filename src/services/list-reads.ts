/**
 * The one way an entry list reaches the database (delivery, dashboard, MCP, CLI): under the
 * service's query budget (storage/sql.ts withQueryBudget: PostgreSQL stops a read past it) and in
 * its workspace's lane, so one workspace's costly reads wait for each other, never in front of
 * another workspace's (docs/content.md "What a query can cost").
 *
 * A lane runs at most LANE_WIDTH reads of one workspace at once and starts each queued one in a
 * later turn of the event loop, after the I/O that arrived meanwhile; on SQLite, whose engines
 * answer synchronously on the event loop, each statement of a busy workspace's read takes its own
 * turn too. So
 * another workspace's request waits for at most one statement of the busy workspace, however
 * many of its requests are in flight (measured by test/content/query-cost.test.ts).
 */
import { unavailable } from "../core/errors.js";
import { BUDGET_READ_CONNECTIONS, withQueryBudget, type Sql } from "../storage/sql.js";
import type { ReadLane as Lane, ServiceContext } from "./context.js";

/**
 * Reads of one workspace at once. SQLite answers one statement at a time anyway. On PostgreSQL a
 * read runs its page and its count side by side, two connections of the budgeted read pool: a
 * busy workspace takes at most all but one of them, so another workspace's read always finds one.
 */
export const LANE_WIDTH = { sqlite: 1, postgresql: Math.max(1, Math.floor((BUDGET_READ_CONNECTIONS - 1) / 2)) } as const;
/**
 * Reads of one workspace waiting for its lane; past it a read is refused (503) rather than queued
 * without end. A waiting read holds only its request, so the bound is generous: 200 clients of one
 * workspace must never see it.
 */
export const MAX_QUEUED_READS = 1000;

/**
 * Runs `read` (given the handle to query with) in the workspace's lane, under the query budget.
 *
 * @example
 * const page = await listRead(ctx, collection.workspaceId, (db) => entries.list(collection.id, query, true, db));
 */
export async function listRead<T>(ctx: ServiceContext, workspaceId: string, read: (db: Sql) => Promise<T>): Promise<T> {
  const lanes = ctx.caches.readLanes;
  let lane = lanes.get(workspaceId);
  if (!lane) lanes.set(workspaceId, (lane = { running: 0, waiting: [] }));
  if (lane.running < LANE_WIDTH[ctx.sql.dialect]) lane.running++;
  else {
    if (lane.waiting.length >= MAX_QUEUED_READS) throw unavailable(`Too many list reads of this workspace are waiting (${MAX_QUEUED_READS}); try again shortly`);
    // Woken with the slot of the read that ended (running stays counted).
    await new Promise<void>((resolve) => lane.waiting.push(resolve));
  }
  try {
    return await withQueryBudget(ctx.sql, ctx.options.queryBudgetMs, (db) => read(db.dialect === "sqlite" ? takingTurns(db, lane) : db));
  } finally {
    const next = lane.waiting.shift();
    if (next) laterTurn().then(next);
    else if (--lane.running === 0) lanes.delete(workspaceId);
  }
}

/**
 * A turn of the event loop after the I/O that arrived meanwhile. Two hops: an immediate queued
 * from a poll callback runs in that same loop turn, before the requests that arrived meanwhile;
 * one queued from the check phase runs after them.
 */
const laterTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * SQLite, a workspace with reads waiting: each statement of a read (a page, then its count) in
 * its own turn, so another workspace's request waits for one statement at most. A workspace
 * reading one list at a time runs its statements straight.
 */
function takingTurns(db: Sql, lane: Lane): Sql {
  const turn = () => (lane.waiting.length > 0 ? laterTurn() : undefined);
  return {
    ...db,
    all: async (s, p) => (await turn(), db.all(s, p)),
    get: async (s, p) => (await turn(), db.get(s, p)),
  };
}
