/**
 * The layer order of `src/` and the checks the layer test runs. Inside out:
 *
 *   core ← storage ← webhooks ← services ← mcp | http ← app ← cli | entry
 *
 * A file imports only its own layer or layers inside it; mcp and http are siblings and never
 * import each other, nor do cli and the package entries. The surfaces (http, mcp, cli) reach data
 * only through services: they import nothing from storage, not even a type. `app` is the composition root
 * (`createService`, which wires the layers); the package entries (`src/index.ts`, `src/h3.ts`,
 * `src/grants.ts`, `src/signature.ts`, `src/webhooks/index.ts`) re-export from any layer.
 */
import type { ImportEdge } from "./imports.js";

export interface Layer {
  name: string;
  /** Distance from the centre: a file may import layers with a lower rank, or its own layer. */
  rank: number;
}

const CORE = { name: "core", rank: 0 };
const LAYER_BY_DIR: Record<string, Layer> = {
  core: CORE,
  storage: { name: "storage", rank: 1 },
  webhooks: { name: "webhooks", rank: 2 },
  services: { name: "services", rank: 3 },
  mcp: { name: "mcp", rank: 4 },
  http: { name: "http", rank: 4 },
  cli: { name: "cli", rank: 6 },
};
const APP: Layer = { name: "app", rank: 5 };
const ENTRY: Layer = { name: "entry", rank: 6 };
const LAYER_BY_FILE: Record<string, Layer> = {
  "service.ts": APP,
  "index.ts": ENTRY,
  "h3.ts": ENTRY,
  "grants.ts": ENTRY,
  "signature.ts": ENTRY,
  "webhooks/index.ts": ENTRY,
};

/** Layers that call services for every use case and never import storage (types included). */
const THROUGH_SERVICES = new Set(["http", "mcp", "cli"]);

/** The order as one line, for messages and CONTRIBUTING.md. */
export const LAYER_ORDER = "core ← storage ← webhooks ← services ← mcp | http ← app ← cli | entry";

/** Packages that do I/O (files, sockets, processes, databases, HTTP): none of them in core. */
const IO_PACKAGES = [
  "fs", "fs/promises", "net", "http", "https", "http2", "tls", "dgram", "dns", "child_process",
  "cluster", "worker_threads", "readline", "stream", "zlib", "os", "process", "inspector",
  "db0", "unstorage", "ioredis", "pg", "better-sqlite3", "h3", "tar", "consola", "jiti",
  "@modelcontextprotocol/sdk", "commander",
];

export function layerOf(file: string): Layer | undefined {
  return LAYER_BY_FILE[file] ?? LAYER_BY_DIR[file.split("/")[0]!];
}

/** Imports that run against the order; each message names the file, the import and the rule. */
export function layerViolations(files: string[], edges: ImportEdge[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!layerOf(file)) problems.push(`${file} belongs to no layer (${LAYER_ORDER}): move it into one`);
  }
  for (const edge of edges) {
    if (!edge.to) continue;
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (!from || !to || from === to) continue;
    const where = `${edge.from}:${edge.line} imports ${edge.typeOnly ? "type " : ""}"${edge.specifier}"`;
    if (to.rank === from.rank) {
      problems.push(`${where}: ${from.name} and ${to.name} are siblings and must not import each other (${LAYER_ORDER})`);
    } else if (to.rank > from.rank) {
      problems.push(`${where}: ${from.name} must not import ${to.name}, an outer layer (${LAYER_ORDER})`);
    } else if (to.name === "storage" && THROUGH_SERVICES.has(from.name)) {
      problems.push(`${where}: ${from.name} must not import storage: call a service (src/services/*), which re-exports the types it needs`);
    }
  }
  return problems;
}

/** Core stays pure: no import of a package that does I/O. */
export function coreIoViolations(edges: ImportEdge[]): string[] {
  return edges
    .filter((edge) => layerOf(edge.from) === CORE && !edge.to && isIoPackage(edge.specifier))
    .map((edge) => `${edge.from}:${edge.line} imports "${edge.specifier}": core does no I/O (no files, network, processes, databases or HTTP)`);
}

/** Every file-level import cycle, each reported once as `a → b → … → a`. */
export function importCycles(edges: ImportEdge[]): string[] {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (!edge.to || edge.to === edge.from) continue;
    if (!graph.has(edge.from)) graph.set(edge.from, new Set());
    graph.get(edge.from)!.add(edge.to);
  }
  // Tarjan's strongly connected components; a component of more than one file holds a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(describeCycle(component.sort(), graph));
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return cycles;
}

/** The shortest loop from the component's first file back to itself. */
function describeCycle(component: string[], graph: Map<string, Set<string>>): string {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    const nexts = [...(graph.get(node) ?? [])].filter((next) => members.has(next)).sort();
    if (nexts.includes(start)) {
      const path = [node];
      while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
      return `import cycle: ${[...path, start].join(" → ")} (files in the cycle: ${component.join(", ")})`;
    }
    for (const next of nexts) {
      if (next !== start && !cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return `import cycle among ${component.join(", ")}`;
}

function isIoPackage(specifier: string): boolean {
  const name = specifier.replace(/^node:/, "");
  return IO_PACKAGES.some((pkg) => name === pkg || name.startsWith(`${pkg}/`));
}
