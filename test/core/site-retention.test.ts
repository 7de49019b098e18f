/**
 * Site deploy retention: the new deploy, then the one it replaced, then the rest newest first,
 * while fewer than `keep` and the distinct bytes stay within the quota; shared contents count once.
 */
import { describe, expect, it } from "vitest";
import { planRetention, type RetentionCandidate } from "../../src/core/site-retention.js";

const blobs = (...pairs: [string, number][]) => new Map(pairs);
const shared = (id: string, ...pairs: [string, number][]): RetentionCandidate => ({ id, blobs: blobs(...pairs), size: pairs.reduce((a, [, n]) => a + n, 0) });

describe("planRetention", () => {
  const fresh = blobs(["a", 100], ["b", 100]);
  const older = [shared("d3", ["a", 100], ["c", 50]), shared("d2", ["e", 400]), shared("d1", ["a", 100])];

  it.each<[string, number, number, string | null, string[], string[], number]>([
    ["keeps everything under both limits", 10, 10_000, "d3", ["d3", "d2", "d1"], [], 650],
    ["keeps `keep` deploys including the new one", 2, 10_000, "d3", ["d3"], ["d2", "d1"], 250],
    ["keeps the replaced deploy first even when older", 2, 10_000, "d1", ["d1"], ["d3", "d2"], 200],
    ["stops at the first deploy past the quota and drops the older ones", 10, 300, "d3", ["d3"], ["d2", "d1"], 250],
    ["counts contents shared with the new deploy once", 10, 250, "d1", ["d1", "d3"], ["d2"], 250],
    ["keeps only the new deploy with keep = 1", 1, 10_000, "d3", [], ["d3", "d2", "d1"], 200],
  ])("%s", (_name, keep, quota, previous, kept, dropped, bytes) => {
    expect(planRetention(fresh, older, { keep, quota }, previous)).toEqual({ keep: kept, drop: dropped, bytes });
  });

  it("counts a deploy that keeps its own copies (made before shared storage) by its size", () => {
    const legacy: RetentionCandidate = { id: "old", size: 300 };
    expect(planRetention(fresh, [legacy], { keep: 10, quota: 500 })).toEqual({ keep: ["old"], drop: [], bytes: 500 });
    expect(planRetention(fresh, [legacy], { keep: 10, quota: 499 })).toEqual({ keep: [], drop: ["old"], bytes: 200 });
  });
});
