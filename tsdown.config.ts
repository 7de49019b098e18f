import { defineConfig } from "tsdown";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    grants: "src/grants.ts",
    signature: "src/signature.ts",
    webhooks: "src/webhooks/index.ts",
    h3: "src/h3.ts",
    cli: "src/cli/index.ts",
  },
  format: "esm",
  platform: "node",
  target: "node20",
  dts: true,
  clean: true,
  sourcemap: false,
});
