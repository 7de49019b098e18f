#!/usr/bin/env node
/**
 * Writes dashboard/src/api-types.ts: TypeScript types of the OpenAPI document the server builds
 * from its route table (openapi-typescript), so the dashboard reads the server's shapes instead of
 * copies. Run `npm run generate:types` after changing a route's answer; the file is committed, so
 * the dashboard builds without it. The document is built in this process from the sources (Vite's module runner, no server and no dist/ needed).
 * test/dashboard/api-types.test.ts (part of `npm test`) fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

export const API_TYPES_FILE = fileURLToPath(new URL("../dashboard/src/api-types.ts", import.meta.url));

const HEADER = `// Generated from the server's OpenAPI document (src/http/openapi.ts, src/http/responses.ts) by
// scripts/generate-api-types.mjs. Do not edit: change the server, then run npm run generate:types.
`;

/** The file's text for an OpenAPI document. */
export async function renderApiTypes(document) {
  return HEADER + "\n" + astToString(await openapiTS(document, { silent: true, alphabetize: true, emptyObjectsUnknown: true }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runnerImport } = await import("vite");
  const { module } = await runnerImport(fileURLToPath(new URL("api-document.ts", import.meta.url)), { configFile: false, logLevel: "warn" });
  const text = await renderApiTypes(module.apiDocument());
  let before = "";
  try {
    before = readFileSync(API_TYPES_FILE, "utf8");
  } catch {}
  if (before !== text) {
    writeFileSync(API_TYPES_FILE, text);
    // Say so: the build just changed a committed file.
    console.warn("dashboard/src/api-types.ts regenerated from the server's OpenAPI document: commit it.");
  }
}
