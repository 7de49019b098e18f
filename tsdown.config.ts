import { defineConfig } from "tsdown";

const shared = {
  format: "esm",
  platform: "node",
  target: "node20",
  dts: true,
  sourcemap: false,
  inputOptions: { checks: { pluginTimings: false } },
} as const;

export default defineConfig([
  {
    ...shared,
    entry: {
      index: "src/index.ts",
      grants: "src/grants.ts",
      webhooks: "src/webhooks/index.ts",
      h3: "src/h3.ts",
    },
    clean: true,
  },
  // The CLI is an application, built alone with the libraries `svc serve` loads inlined: Node's
  // ESM loader resolves, reads and compiles each file on its own (zod alone is ~95 files), which
  // made module loading most of the start-up time (docs/benchmarks.md, "Round two: start-up").
  // Left external: native or optional drivers, and what only some commands load lazily.
  {
    ...shared,
    dts: false,
    entry: { cli: "src/cli/index.ts" },
    deps: {
      alwaysBundle: [/^(zod|h3|consola|commander|unstorage|lru-cache|ipaddr\.js|mime|image-size|db0|uuid)(\/|$)/],
      neverBundle: ["bun:sqlite"],
    },
    // Its chunks stay beside the library's (code finds package files by walking up from here).
    outputOptions: { chunkFileNames: "cli-[name]-[hash].mjs" },
    clean: false,
  },
  // Built alone so dist/signature.mjs is one file that imports nothing: receivers copy it anywhere
  // (Node, Bun, Deno, workers).
  { ...shared, entry: { signature: "src/signature.ts" }, clean: false },
]);
