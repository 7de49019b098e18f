/**
 * The layers of `src/` point one way (see CONTRIBUTING.md, "Layers"): every import, type-only
 * and dynamic ones included, runs inward, no two files import each other through any chain, and
 * core imports nothing that does I/O. `SVC_LAYERS_SRC` points the scan at another tree (for
 * example an older checkout) to see what this test would report there.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { listSources, scanImports, type ImportEdge } from "./imports.js";
import { coreIoViolations, importCycles, layerViolations } from "./layers.js";

const root = resolve(process.env.SVC_LAYERS_SRC ?? "src");
const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, specifier: `./${to}`, to, typeOnly, line: 1 });

describe("layers", () => {
  const files = listSources(root);
  const edges = scanImports(root);

  it("scans every source file and finds its imports", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges.filter((e) => e.to).length).toBeGreaterThan(100);
  });

  it("every import runs inward: core ← storage ← webhooks ← services ← mcp | http ← app ← cli | entry; http, mcp and cli never import storage", () => {
    expect(layerViolations(files, edges)).toEqual([]);
  });

  it("no file-level import cycle", () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it("core imports nothing with I/O", () => {
    expect(coreIoViolations(edges)).toEqual([]);
  });
});

describe("the layer checks themselves", () => {
  it("refuse an outward import, type-only included, naming the file, the import and the rule", () => {
    const problems = layerViolations(["storage/a.ts", "http/b.ts"], [edge("storage/a.ts", "http/b.ts", true)]);
    expect(problems).toEqual([expect.stringMatching(/^storage\/a\.ts:1 imports type "\.\/http\/b\.ts": storage must not import http, an outer layer/)]);
  });

  it("refuse any storage import from http, mcp and cli, type-only included, naming the file, the import and the rule", () => {
    const files = ["storage/repo.ts", "http/route.ts", "mcp/tool.ts", "cli/command.ts"];
    const problems = layerViolations(files, [
      edge("http/route.ts", "storage/repo.ts"),
      edge("mcp/tool.ts", "storage/repo.ts", true),
      edge("cli/command.ts", "storage/repo.ts"),
    ]);
    expect(problems).toEqual([
      'http/route.ts:1 imports "./storage/repo.ts": http must not import storage: call a service (src/services/*), which re-exports the types it needs',
      'mcp/tool.ts:1 imports type "./storage/repo.ts": mcp must not import storage: call a service (src/services/*), which re-exports the types it needs',
      'cli/command.ts:1 imports "./storage/repo.ts": cli must not import storage: call a service (src/services/*), which re-exports the types it needs',
    ]);
  });

  it("let services, webhooks and the composition root import storage", () => {
    const files = ["storage/repo.ts", "services/a.ts", "webhooks/b.ts", "service.ts"];
    const edges = [edge("services/a.ts", "storage/repo.ts"), edge("webhooks/b.ts", "storage/repo.ts"), edge("service.ts", "storage/repo.ts")];
    expect(layerViolations(files, edges)).toEqual([]);
  });

  it("refuse imports between siblings and files outside every layer", () => {
    expect(layerViolations(["mcp/a.ts", "http/b.ts"], [edge("mcp/a.ts", "http/b.ts")])).toEqual([expect.stringContaining("mcp and http are siblings")]);
    expect(layerViolations(["context.ts"], [])).toEqual([expect.stringContaining("context.ts belongs to no layer")]);
  });

  it("allow inward imports and imports within a layer", () => {
    const files = ["core/a.ts", "services/b.ts", "http/c.ts", "http/d.ts", "index.ts"];
    const edges = [edge("services/b.ts", "core/a.ts"), edge("http/c.ts", "services/b.ts"), edge("http/c.ts", "http/d.ts"), edge("index.ts", "http/c.ts")];
    expect(layerViolations(files, edges)).toEqual([]);
  });

  it("find a cycle through several files", () => {
    const edges = [edge("a.ts", "b.ts"), edge("b.ts", "c.ts"), edge("c.ts", "a.ts"), edge("c.ts", "d.ts")];
    expect(importCycles(edges)).toEqual(["import cycle: a.ts → b.ts → c.ts → a.ts (files in the cycle: a.ts, b.ts, c.ts)"]);
  });

  it("refuse an I/O package in core, with or without the node: prefix", () => {
    const io = (specifier: string): ImportEdge => ({ from: "core/a.ts", specifier, to: undefined, typeOnly: false, line: 3 });
    expect(coreIoViolations([io("node:fs"), io("fs/promises"), io("db0"), io("unstorage/drivers/fs"), io("h3"), io("node:crypto"), io("zod")])).toHaveLength(5);
  });
});
