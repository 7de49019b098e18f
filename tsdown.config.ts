import { defineConfig } from "tsdown";

/**
 * consola's fancy reporter builds an `Intl.Segmenter` when it is imported (~7 ms of CPU: ICU's
 * break-iterator data) to measure each line's width, a width it uses only to right-align the tag
 * in a terminal of 80 columns or more. In the CLI bundle the segmenter is built on first use and
 * widths are measured only when they are used, so a log to a pipe or file never builds it; the
 * output is the same. The build fails if consola's code changed, rather than silently not patch.
 */
const CONSOLA_LAZY_WIDTH: [string, string][] = [
  [
    "const segmenter = globalThis.Intl?.Segmenter ? new Intl.Segmenter() : { segment: (str) => str.split('') };",
    "let builtSegmenter;\nconst segmenter = { segment: (str) => (builtSegmenter ??= globalThis.Intl?.Segmenter ? new Intl.Segmenter() : { segment: (s) => s.split('') }).segment(str) };",
  ],
  [
    "const space = (opts.columns || 0) - stringWidth(left) - stringWidth(right) - 2;",
    "const space = (opts.columns || 0) >= 80 ? opts.columns - stringWidth(left) - stringWidth(right) - 2 : 0;",
  ],
];
const consolaLazyWidth = {
  name: "consola-lazy-width",
  transform: {
    filter: { id: /[\\/]consola[\\/]dist[\\/]index\.mjs$/ },
    handler(code: string) {
      for (const [from, to] of CONSOLA_LAZY_WIDTH) {
        if (!code.includes(from)) throw new Error(`consola-lazy-width: consola changed, not found: ${from}`);
        code = code.replace(from, to);
      }
      return { code, map: null };
    },
  },
};

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
      alwaysBundle: [/^(zod|h3|consola|commander|unstorage|lru-cache|ipaddr\.js|mime|image-size|db0)(\/|$)/],
      neverBundle: ["bun:sqlite"],
    },
    // Its chunks stay beside the library's (code finds package files by walking up from here).
    // JSDoc is a fifth of the bundle's bytes and V8 scans every byte at each start (~2 ms of CPU);
    // readers have the sources, and the code stays as readable as before (not minified).
    outputOptions: { chunkFileNames: "cli-[name]-[hash].mjs", comments: { legal: true, annotation: true, jsdoc: false } },
    plugins: [consolaLazyWidth],
    clean: false,
  },
  // Built alone so dist/signature.mjs is one file that imports nothing: receivers copy it anywhere
  // (Node, Bun, Deno, workers).
  { ...shared, entry: { signature: "src/signature.ts" }, clean: false },
]);
