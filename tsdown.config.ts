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
      cli: "src/cli/index.ts",
    },
    clean: true,
  },
  // Built alone so dist/signature.mjs is one file that imports nothing: receivers copy it anywhere
  // (Node, Bun, Deno, workers).
  { ...shared, entry: { signature: "src/signature.ts" }, clean: false },
]);
