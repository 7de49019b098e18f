#!/usr/bin/env node
import module from "node:module";

// Node >= 22.1 keeps the bundle's compiled code across starts (in the OS temp directory, or
// NODE_COMPILE_CACHE); older Node has no such cache and compiles it at every start.
module.enableCompileCache?.();

const { runCli } = await import("../dist/cli.mjs");
process.exitCode = await runCli(process.argv.slice(2));
