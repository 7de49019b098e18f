import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Real servers and real timers: files run in parallel processes, tests in a file in order.
    pool: "forks",
  },
});
