/**
 * Ids of the rows that accumulate (storage/ids.ts): UUIDv7, time-ordered, unique, drawn from a
 * pooled random source that is refilled as it runs out.
 */
import { describe, expect, it } from "vitest";
import { newRowId } from "../../src/storage/ids.js";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millis = (id: string) => parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describe("newRowId", () => {
  it("is a UUIDv7 carrying the current time", () => {
    const before = Date.now();
    const id = newRowId();
    const after = Date.now();
    expect(id).toMatch(V7);
    expect(millis(id)).toBeGreaterThanOrEqual(before);
    expect(millis(id)).toBeLessThanOrEqual(after);
  });

  it("stays unique and well-formed across many pool refills", () => {
    // 4 KiB of random bytes serve 256 ids: 20,000 ids refill the pool ~78 times.
    const ids = Array.from({ length: 20_000 }, () => newRowId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(V7);
    // The random part really varies (a pool that was never refilled would repeat every 256 ids).
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it("orders ids of later milliseconds after earlier ones (as text, as SQL compares them)", async () => {
    const first = newRowId();
    await new Promise((r) => setTimeout(r, 3));
    const second = newRowId();
    expect(millis(second)).toBeGreaterThan(millis(first));
    expect(first < second).toBe(true);
  });
});
