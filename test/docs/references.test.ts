/**
 * Generated references stay true: docs/cli.md from the commander definitions, docs/configuration.md
 * from the zod schema. SVC_UPDATE_DOCS=1 rewrites them.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { buildProgram } from "../../src/cli/index.js";
import { renderCliReference, renderConfigReference } from "../../src/cli/reference.js";
import { CONFIG_DEFAULTS } from "../../src/cli/config.js";

const check = (file: string, generated: string) => {
  if (process.env.SVC_UPDATE_DOCS === "1") writeFileSync(file, generated);
  expect(readFileSync(file, "utf8"), `${file} is stale: SVC_UPDATE_DOCS=1 npx vitest run test/docs/references.test.ts`).toBe(generated);
};

describe("generated references", () => {
  it("docs/cli.md matches the CLI's definitions", () => {
    const text = renderCliReference(buildProgram());
    for (const cmd of ["svc serve", "svc workspaces create <slug>", "svc keys create", "svc webhooks listen", "svc init [dir]"]) expect(text).toContain(cmd);
    check("docs/cli.md", text);
  });

  it("docs/configuration.md matches the configuration schema", () => {
    const text = renderConfigReference(CONFIG_DEFAULTS);
    for (const env of ["SVC_DATA_DIR", "SVC_DATABASE_URL", "SVC_BLOBS", "SVC_REDIS_URL", "PORT", "SVC_SECRET_KEY"]) expect(text).toContain(env);
    check("docs/configuration.md", text);
  });
});
