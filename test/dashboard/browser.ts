/**
 * The browser harness of the dashboard tests: the real `svc serve` (built CLI, fresh data
 * directory, random port) driven by Debian's Chromium through playwright-core. Without
 * /usr/bin/chromium the suites skip with a message locally, and fail on CI (CI=true).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import axe from "axe-core";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { describe, expect } from "vitest";
import { startInstance, type Instance } from "../scale/helpers.js";

export const CHROMIUM = "/usr/bin/chromium";
// Screenshots are always taken; they replace the ones docs/dashboard.md shows only when asked
// (SVC_UPDATE_DOCS=1, like the other generated docs), so a test run leaves the tree clean.
const SHOTS =
  process.env.SVC_UPDATE_DOCS === "1" ? fileURLToPath(new URL("../../docs/dashboard/", import.meta.url)) : mkdtempSync(join(tmpdir(), "svc-dashboard-shots-"));
const ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Every *.localhost name (the dashboard host, site hosts) reaches the server on 127.0.0.1.
  "--host-resolver-rules=MAP *.localhost 127.0.0.1, MAP localhost 127.0.0.1",
];

/** `describe`, or a skip with the reason when Chromium is missing outside CI. */
export function describeBrowser(name: string, fn: () => void): void {
  if (!existsSync(CHROMIUM) && process.env.CI !== "true") {
    console.warn(`Skipping "${name}": ${CHROMIUM} is missing (apt-get install -y chromium). On CI (CI=true) this fails instead.`);
    describe.skip(name, fn);
    return;
  }
  // A real browser against a real server on a shared machine: generous per-test time.
  describe(name, { timeout: 120_000 }, fn);
}

export interface Dashboard {
  svc: Instance;
  browser: Browser;
  /** The demo's dashboard URL as `svc serve` printed it. */
  url: string;
  port: number;
  owner: { email: string; password: string };
  /** A fresh browser context (its own storage, like another browser profile). */
  context(): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** Starts `svc serve` on an empty data directory (the demo workspace) and Chromium. */
export async function startDashboard(args: string[] = []): Promise<Dashboard> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const dataDir = mkdtempSync(join(tmpdir(), "svc-dashboard-"));
  const svc = await startInstance({ dataDir, args });
  const [, email, password] = await svc.waitForOutput(/owner sign-in\s+(\S+) \/ (\S+)/);
  const [, url] = await svc.waitForOutput(/dashboard\s+(http:\/\/admin\.localhost:\d+\/_\/)/);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const contexts: BrowserContext[] = [];
  return {
    svc,
    browser,
    url: url!,
    port: svc.port,
    owner: { email: email!, password: password! },
    async context() {
      const context = await browser.newContext({ viewport: { width: 1180, height: 760 } });
      contexts.push(context);
      return context;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await svc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Collects the Content-Security-Policy violations a page reports (there must be none). */
export function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) found.push(m.text());
  });
  return found;
}

/** A section's link in the side navigation. */
export const navLink = (page: Page, name: string) => page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name, exact: true });

/** Signs in through the sign-in form and waits for the shell. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

/** Screenshot of the viewport into docs/dashboard/<name>.png (committed, rewritten each run). */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/** Runs axe-core in the page; fails listing any serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  // Evaluated over the DevTools protocol, which the page's CSP does not govern (no inline script is added).
  await page.evaluate(axe.source);
  const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] }));
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(bad, `axe on ${screen}`).toEqual([]);
}
