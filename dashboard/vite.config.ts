// The dashboard build: a Vue 3 single-page app served at /_/ with hashed assets. No inline script
// or style anywhere (the CSP has neither 'unsafe-inline' nor 'unsafe-eval'): no module-preload
// polyfill, nothing inlined as data: URLs except images.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import vue from "@vitejs/plugin-vue";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/_/",
  plugins: [vue()],
  define: {
    __VUE_OPTIONS_API__: "false",
    __VUE_PROD_DEVTOOLS__: "false",
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rolldownOptions: {
      checks: { pluginTimings: false },
      // Two pages: the app, and the API reference viewer at /_/api/ (http/dashboard/serve.ts).
      input: {
        index: fileURLToPath(new URL("index.html", import.meta.url)),
        api: fileURLToPath(new URL("api/index.html", import.meta.url)),
      },
    },
  },
});
