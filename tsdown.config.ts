import { defineConfig } from "tsdown";

/**
 * Replaces exact snippets of a dependency's code in the CLI bundle. The build fails rather than
 * silently not patching: when a snippet is not found exactly once (the dependency changed), and
 * when no file matched `id` at all (the code moved to another file).
 */
function patchDependency(name: string, id: RegExp, replacements: [from: string, to: string][]) {
  let patched = false;
  return {
    name,
    transform: {
      filter: { id },
      handler(code: string) {
        for (const [from, to] of replacements) {
          const at = code.indexOf(from);
          if (at < 0 || code.indexOf(from, at + 1) >= 0) throw new Error(`${name}: the dependency changed, not found exactly once: ${from}`);
          code = code.slice(0, at) + to + code.slice(at + from.length);
        }
        patched = true;
        return { code, map: null };
      },
    },
    buildEnd() {
      if (!patched) throw new Error(`${name}: no file matched ${id}; the dependency changed`);
    },
  };
}

/**
 * consola's fancy reporter builds an `Intl.Segmenter` when it is imported (~7 ms of CPU: ICU's
 * break-iterator data) to measure each line's width, a width it uses only to right-align the tag
 * in a terminal of 80 columns or more. In the CLI bundle the segmenter is built on first use and
 * widths are measured only when they are used, so a log to a pipe or file never builds it; the
 * output is the same. Its `import … from "node:process"` makes Node build a module namespace of
 * every property of `process`, running lazy getters such as `allowedNodeEnvironmentFlags` and
 * `report` (~2 ms); the global is the same object.
 */
const consolaStartup = patchDependency("consola-startup", /[\\/]consola[\\/]dist[\\/]index\.mjs$/, [
  ["import g$1 from 'node:process';", "const g$1 = globalThis.process;"],
  [
    "const segmenter = globalThis.Intl?.Segmenter ? new Intl.Segmenter() : { segment: (str) => str.split('') };",
    "let builtSegmenter;\nconst segmenter = { segment: (str) => (builtSegmenter ??= globalThis.Intl?.Segmenter ? new Intl.Segmenter() : { segment: (s) => s.split('') }).segment(str) };",
  ],
  [
    "const space = (opts.columns || 0) - stringWidth(left) - stringWidth(right) - 2;",
    "const space = (opts.columns || 0) >= 80 ? opts.columns - stringWidth(left) - stringWidth(right) - 2 : 0;",
  ],
]);

/**
 * mime/lite indexes its standard database into a default instance when it is imported (~2.5 ms
 * of CPU); core/content-types.ts uses only the `Mime` class, so the unused instance is marked pure
 * and left out of the bundle.
 */
const mimeUnusedDefault = patchDependency("mime-unused-default", /[\\/]mime[\\/]dist[\\/]src[\\/]index_lite\.js$/, [
  ["export default new Mime(standardTypes)._freeze();", "export default /* @__PURE__ */ new Mime(standardTypes)._freeze();"],
]);

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
    // JSDoc is a fifth of the bundle's bytes and V8 scans every byte at each start (~2 ms of CPU);
    // readers have the sources, and the code stays as readable as before (not minified).
    outputOptions: { chunkFileNames: "cli-[name]-[hash].mjs", comments: { legal: true, annotation: true, jsdoc: false } },
    plugins: [consolaStartup, mimeUnusedDefault],
    clean: false,
  },
  // Built alone so dist/signature.mjs is one file that imports nothing: receivers copy it anywhere
  // (Node, Bun, Deno, workers).
  { ...shared, entry: { signature: "src/signature.ts" }, clean: false },
]);
