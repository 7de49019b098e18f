/**
 * The built dashboard (npm run build:dashboard, part of pretest): no inline script or style, only
 * same-origin references, hashed asset names, and a first screen of at most 150 KB gzipped.
 */
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { dashboardDir } from "../../src/http/dashboard/assets.js";

const FIRST_SCREEN_BUDGET = 150 * 1024;

describe("built dashboard assets", () => {
  const dir = dashboardDir()!;
  const html = readFileSync(`${dir}/index.html`, "utf8");

  it("has no inline script or style and references nothing on another origin", () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
    for (const [, ref] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(ref).toMatch(/^(\/_\/assets\/|data:)/);
  });

  it("names every asset by its content hash", () => {
    for (const file of readdirSync(`${dir}/assets`)) expect(file).toMatch(/-[A-Za-z0-9_-]{8}\.(js|css)$/);
  });

  it("keeps the first screen's JS + CSS within 150 KB gzipped", () => {
    const entry = [...html.matchAll(/(?:src|href)="\/_\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(entry.length).toBeGreaterThanOrEqual(2);
    const gzipped = entry.reduce((sum, path) => sum + gzipSync(readFileSync(`${dir}/${path}`)).byteLength, 0);
    expect(gzipped).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
  });
});
