/**
 * The dashboard's built assets (Vite output, shipped in the package as `dashboard/dist/`), read
 * once into memory: a few hundred kilobytes, answered without disk I/O. The package root is found
 * from this module's location, which differs between the bundle (`dist/`) and the sources.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { contentTypeFor } from "../../core/content-types.js";

export interface DashboardAsset {
  bytes: Uint8Array;
  contentType: string;
  etag: string;
}

/** Relative path (`index.html`, `assets/index-3f2a.js`) → asset. */
export type DashboardAssets = ReadonlyMap<string, DashboardAsset>;

/** The directory holding the built dashboard, or undefined when it was never built. */
export function dashboardDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json"))) {
      const built = join(dir, "dashboard", "dist");
      return existsSync(join(built, "index.html")) ? built : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** Reads every file of the built dashboard. */
export async function loadDashboardAssets(dir: string): Promise<DashboardAssets> {
  const assets = new Map<string, DashboardAsset>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full).split(sep).join("/");
    const bytes = new Uint8Array(await readFile(full));
    const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`;
    assets.set(path, { bytes, contentType: contentTypeFor(path), etag });
  }
  return assets;
}
