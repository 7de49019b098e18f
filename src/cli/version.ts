/** The package version for `svc --version`, read from the package's own package.json. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Walks up from this module (dist/ when installed, src/cli/ in a checkout) to contentsvc's package.json. */
export function packageVersion(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "contentsvc" && pkg.version) return pkg.version;
    } catch {
      // No package.json here: keep walking up.
    }
    if (dirname(dir) === dir) return "unknown";
  }
}
