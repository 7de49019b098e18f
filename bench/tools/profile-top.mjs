#!/usr/bin/env node
/**
 * Summarizes a .cpuprofile (from `npm run bench -- --profile <server>`): the functions with the
 * most self time, and the most inclusive time, as percentages of all samples.
 *
 *   node bench/tools/profile-top.mjs bench/results/profiles/CPU.….cpuprofile [top=25]
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: node bench/tools/profile-top.mjs <file.cpuprofile> [top]");
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const total = profile.samples.length;
const label = (n) => {
  const f = n.callFrame;
  return `${f.functionName || "(anonymous)"} ${f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : ""}`.trim();
};
const selfBy = new Map();
const inclBy = new Map();
for (const [id, count] of self) {
  const n = nodes.get(id);
  selfBy.set(label(n), (selfBy.get(label(n)) ?? 0) + count);
  // Inclusive: count each label once per sample stack.
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(nodes.get(cur));
    if (seen.has(l)) continue;
    seen.add(l);
    inclBy.set(l, (inclBy.get(l) ?? 0) + count);
  }
}
const print = (title, map) => {
  console.log(`\n${title} (${total} samples)`);
  for (const [l, c] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((c / total) * 100).toFixed(1).padStart(6)}%  ${l}`);
};
print("self time", selfBy);
print("inclusive time", inclBy);
