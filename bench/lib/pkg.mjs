/**
 * The built package under test. run.mjs copies dist/, bin/ and package.json into a snapshot under
 * .tmp/ (BENCH_PKG_DIR) so a concurrent `tsdown` (which cleans dist/) cannot swap code mid-run;
 * without a snapshot the package resolves through its own exports ("contentsvc", …).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const DIR = process.env.BENCH_PKG_DIR;
const FILES = { "": "index.mjs", "/webhooks": "webhooks.mjs", "/signature": "signature.mjs" };

/** `import("contentsvc" + subpath)`, from the snapshot when there is one. */
export function importPackage(subpath = "") {
  return DIR ? import(pathToFileURL(join(DIR, "dist", FILES[subpath])).href) : import(`contentsvc${subpath}`);
}

/** Path of bin/svc.mjs (snapshot or repository). */
export function svcBin(root) {
  return join(DIR ?? root, "bin/svc.mjs");
}
