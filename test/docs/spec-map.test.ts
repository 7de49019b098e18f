/**
 * docs/spec-map.md stays true: every row names exactly ONE `src/…#symbol` where its rule is decided
 * ("Decided in"; callers and executors go to "Wired through"), every `path#symbol` names a file
 * that exists and holds the symbol,
 * every `test file` › fragment names a test file that holds that piece of a test title, every rule
 * of the spec's structure (the REQUIRED list below, written from the spec's sections, numbered
 * rules and table rows) has at least one row, and every rule without a test is listed under Gaps.
 * Pure file reads: no server, no build.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url);
const DOC_PATH = "docs/spec-map.md";
const HEADER = ["Rule", "Requirement", "Decided in", "Wired through", "Tests"];

/**
 * Every requirement of spec content-service-api-v1: `N.N.N` for the spec's own numbered rules,
 * `<section>/<row>` for a row of one of its tables (or one bullet of an endpoint list).
 */
const REQUIRED: readonly string[] = [
  // 1 What the service does; addressing rules 1–3
  "1", "1.1", "1.2", "1.3",
  // 2.1 API key
  "2.1/name", "2.1/value", "2.1/grants", "2.1/last_used_at", "2.1/owner-only",
  // 2.2 Grant: the form, then one row per resource
  "2.2", "2.2/collections", "2.2/entries", "2.2/media", "2.2/forms", "2.2/submissions", "2.2/users", "2.2/rules", "2.2/sites",
  // 2.3 Dashboard user
  "2.3/sign-in", "2.3/role", "2.3/member-grants",
  // 2.4 Account session
  "2.4",
  // 2.5 Entry
  "2.5/id", "2.5/user-fields", "2.5/_status", "2.5/_published_at", "2.5/_created_by", "2.5/_created_at", "2.5/_updated_at",
  "2.5/one-to-many", "2.5/many-to-many", "2.5/re-read",
  // 2.6 Webhook
  "2.6/id", "2.6/url-https", "2.6/url-private", "2.6/events", "2.6/active", "2.6/format", "2.6/headers", "2.6/header_names",
  "2.6/debounce_ms", "2.6/debounce_scope", "2.6/secret", "2.6/created_at",
  // 2.7 Form and submission
  "2.7/form", "2.7/submission", "2.7/no-values",
  // 3 States and transitions: every row of the state table, then the other lifecycles
  "3/statuses", "3/created-draft", "3/created-published", "3/draft-to-published", "3/published-to-draft", "3/saved", "3/deleted",
  "3/api-key", "3/account-session", "3/grants",
  // 4.1 Content and forms
  "4.1/collection-auth", "4.1/collection-drafts", "4.1/media", "4.1/form", "4.1/submit", "4.1/submit-honeypot", "4.1/submit-accepted",
  // 4.2 Agent endpoint
  "4.2/auth", "4.2/drafts",
  // 4.3 Dashboard, including the three PUT custom-header rules
  "4.3/sdk", "4.3/webhooks-auth", "4.3/webhooks-body", "4.3/webhooks-response", "4.3/webhook-get-put", "4.3.1", "4.3.2", "4.3.3",
  // 4.4 Identity, 4.5 other surfaces
  "4.4", "4.5",
  // 5.1 Mechanisms
  "5.1/key", "5.1/dashboard", "5.1/account", "5.1/no-overlap",
  // 5.2 Sending a key
  "5.2.1", "5.2.2", "5.2.3",
  // 5.3 Which surface needs what: every row
  "5.3/collection-public", "5.3/collection-private", "5.3/media", "5.3/form", "5.3/submit", "5.3/mcp", "5.3/sdk",
  // 5.4 Grant rules
  "5.4.1", "5.4.2", "5.4.3", "5.4.4", "5.4.5", "5.4.6",
  // 5.5 Roles
  "5.5/owner", "5.5/owner-only", "5.5/billing", "5.5/member",
  // 5.6, 5.7
  "5.6", "5.7",
  // 6 Events; 6.1 envelope
  "6", "6.1/post-json", "6.1/keys", "6.1/data", "6.1/timestamp",
  // 6.2 every event, and the data shapes
  "6.2/content.created", "6.2/content.updated", "6.2/content.deleted", "6.2/content.published", "6.2/content.unpublished",
  "6.2/form.submitted", "6.2/shapes",
  // 6.3 repository dispatch format
  "6.3/body", "6.3/signature",
  // 6.4 Signature
  "6.4.1", "6.4.2", "6.4.3", "6.4.4",
  // 6.5 Custom headers
  "6.5/count", "6.5/forbidden-names", "6.5/tokens-values", "6.5/sealed",
  // 6.6 Delivery behaviour: every aspect row
  "6.6/success", "6.6/timeout", "6.6/retries", "6.6/redirects", "6.6/ordering", "6.6/duplicates", "6.6/response-body",
  "6.6/persistence", "6.6/no-log-replay-dlq", "6.6/source-user-agent", "6.6/secret-rotation",
  // 6.7 Debouncing
  "6.7.1", "6.7.2", "6.7.3", "6.7.4",
  // 7 Errors: each row and each refusal
  "7/404", "7/401", "7/400", "7/missing-grant", "7/webhook-save", "7/schema-change", "7/receiver-non-2xx",
  // 8 Limits: each limit
  "8/key-format", "8/last_used_at", "8/account-session", "8/grant-propagation", "8/header-count", "8/header-value", "8/timeout",
  "8/attempts", "8/coalescing", "8/debounce_ms", "8/webhook-url",
  // 9 Versioning
  "9.1", "9.2", "9.3",
];

interface Row {
  line: number;
  id: string;
  requirement: string;
  decided: string;
  wired: string;
  tests: string;
}

const files = new Map<string, string | null>();
/** A repository file's text, or null when it does not exist (cached: many rows share files). */
function read(path: string): string | null {
  if (!files.has(path)) {
    const url = new URL(path, ROOT);
    files.set(path, existsSync(url) ? readFileSync(url, "utf8") : null);
  }
  return files.get(path)!;
}

const doc = read(DOC_PATH) ?? "";
const gapsAt = doc.indexOf("\n## Gaps");
const gaps = gapsAt < 0 ? "" : doc.slice(gapsAt);
const tableLines = doc
  .slice(0, gapsAt < 0 ? undefined : gapsAt)
  .split("\n")
  .map((text, i) => ({ text: text.trim(), line: i + 1 }))
  .filter((l) => l.text.startsWith("|"));
const cellsOf = (text: string) => text.replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
const isSeparator = (cells: string[]) => cells.every((c) => /^:?-{3,}:?$/.test(c));
const rows: Row[] = tableLines
  .map(({ text, line }) => ({ cells: cellsOf(text), line }))
  .filter(({ cells }) => !isSeparator(cells) && cells[0] !== HEADER[0])
  .map(({ cells, line }) => ({ line, id: cells[0] ?? "", requirement: cells[1] ?? "", decided: cells[2] ?? "", wired: cells[3] ?? "", tests: cells[4] ?? "", cells }))
  .map(({ cells, ...row }) => (cells.length === HEADER.length ? row : { ...row, id: `(line ${row.line}: ${cells.length} cells)` }));

const IDENT = "A-Za-z0-9_$";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** True when `text` holds `name` as a whole identifier. */
const holdsIdentifier = (text: string, name: string) => new RegExp(`(?<![${IDENT}])${escape(name)}(?![${IDENT}])`).test(text);

/** Why a `path#symbol` (or, in a "—" note, a plain `path`) reference is wrong, or null. */
function codeProblem(ref: string): string | null {
  const hash = ref.indexOf("#");
  const path = hash < 0 ? ref : ref.slice(0, hash);
  const text = read(path);
  if (text === null) return `${ref}: no file ${path}`;
  if (hash < 0) return null;
  const symbol = ref.slice(hash + 1);
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(symbol)) return `${ref}: ${JSON.stringify(symbol)} is not a symbol`;
  const missing = symbol.split(".").filter((part) => !holdsIdentifier(text, part));
  return missing.length ? `${ref}: ${path} does not contain ${missing.join(", ")}` : null;
}

/**
 * True when `fragment` sits on a line that can hold a title: an it/test/describe call (any
 * modifiers), the title call of a `.each` table (`)("…"`), a string-literal line of a multi-line
 * call, or a `.each` table row (`[...]`). Keeps fragments out of comments and assertions.
 */
function onTitleLine(text: string, fragment: string): boolean {
  return text
    .split("\n")
    .filter((line) => line.includes(fragment))
    .some((line) => /\b(it|test|describe)(\.[A-Za-z]+(\([^)]*\))?)*\(/.test(line) || /\)\(\s*["'`]/.test(line) || /^\s*["'`\[]/.test(line));
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const TEST_REF = /^`([^`]+)` › (.+)$/;

describe(DOC_PATH, () => {
  it("exists and has one five-column table per spec section, with the agreed header", () => {
    expect(doc.length).toBeGreaterThan(0);
    const headers = tableLines.filter((l) => cellsOf(l.text)[0] === HEADER[0]);
    expect(headers.length).toBeGreaterThan(20);
    for (const h of headers) expect(cellsOf(h.text), `line ${h.line}`).toEqual(HEADER);
    expect(rows.length).toBeGreaterThanOrEqual(REQUIRED.length);
    expect(gaps, "a ## Gaps section closes the document").toMatch(/^\n## Gaps\n/);
  });

  it("every row has a known rule id, a paraphrase, a decided-in cell and a tests cell", () => {
    const known = new Set(REQUIRED);
    const problems = rows.flatMap((r) => [
      ...(known.has(r.id) ? [] : [`line ${r.line}: rule id ${JSON.stringify(r.id)} is not in the REQUIRED list of ${import.meta.url.split("/").pop()}`]),
      ...(r.requirement.length >= 10 ? [] : [`line ${r.line}: ${r.id} has no paraphrase`]),
      ...(r.decided ? [] : [`line ${r.line}: ${r.id} has an empty decided-in cell`]),
      ...(r.tests ? [] : [`line ${r.line}: ${r.id} has an empty tests cell`]),
    ]);
    expect(problems).toEqual([]);
  });

  it("has at least one row for every rule of the spec", () => {
    const mapped = new Set(rows.map((r) => r.id));
    expect(REQUIRED.filter((id) => !mapped.has(id))).toEqual([]);
    expect(new Set(REQUIRED).size, "REQUIRED has duplicates").toBe(REQUIRED.length);
  });

  it("every row is decided in exactly one src/…#symbol, which exists (or says — why nothing decides it)", () => {
    const problems: string[] = [];
    for (const r of rows) {
      const where = `line ${r.line} (${r.id})`;
      if (r.decided.startsWith("—")) {
        // Not enforced in code: the note may cite documents (`docs/x.md`) or code; each must exist.
        for (const ref of backticked(r.decided)) {
          const problem = codeProblem(ref);
          if (problem) problems.push(`${where}: ${problem}`);
        }
        continue;
      }
      if (!/^`src\/[^`#]+#[^`]+`$/.test(r.decided)) {
        problems.push(`${where}: decided-in cell must be exactly one \`src/…#symbol\` (or start with —): ${r.decided}`);
        continue;
      }
      const problem = codeProblem(backticked(r.decided)[0]!);
      if (problem) problems.push(`${where}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it("every wired-through path#symbol names an existing file that contains the symbol, none repeating the decision", () => {
    const problems: string[] = [];
    for (const r of rows) {
      const where = `line ${r.line} (${r.id})`;
      if (r.wired === "") continue;
      if (!/^`[^`#]+#[^`]+`(, `[^`#]+#[^`]+`)*$/.test(r.wired)) {
        problems.push(`${where}: wired-through cell must be empty or \`path#symbol\`, …: ${r.wired}`);
        continue;
      }
      for (const ref of backticked(r.wired)) {
        const problem = codeProblem(ref);
        if (problem) problems.push(`${where}: ${problem}`);
        if (r.decided === `\`${ref}\``) problems.push(`${where}: ${ref} is both decided in and wired through`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every test reference names an existing test file that contains the title fragment", () => {
    const problems: string[] = [];
    for (const r of rows) {
      const where = `line ${r.line} (${r.id})`;
      if (r.tests === "—" || r.tests.startsWith("— ")) continue;
      // Items are separated by "; " before the next backticked file (a title may itself hold "; ").
      for (const item of r.tests.split(/; (?=`)/)) {
        const m = TEST_REF.exec(item);
        if (!m) {
          problems.push(`${where}: expected \`test file\` › fragment, got ${JSON.stringify(item)}`);
          continue;
        }
        const [, file, fragment] = m as unknown as [string, string, string];
        const text = read(file);
        if (!/^test\/.+\.test\.ts$/.test(file)) problems.push(`${where}: ${file} is not a test file (test/**/*.test.ts)`);
        else if (text === null) problems.push(`${where}: no test file ${file}`);
        else if (fragment.trim().length < 6) problems.push(`${where}: fragment ${JSON.stringify(fragment)} is too short to name a test`);
        else if (!text.includes(fragment)) problems.push(`${where}: ${file} does not contain ${JSON.stringify(fragment)}`);
        else if (!onTitleLine(text, fragment)) problems.push(`${where}: ${JSON.stringify(fragment)} is in ${file} but not in a test title or .each label`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists every rule without a test (or without code and a document) under Gaps", () => {
    const inGaps = (id: string) => gaps.includes(`\`${id}\``);
    const untested = rows.filter((r) => r.tests === "—" || r.tests.startsWith("— "));
    const undocumented = rows.filter((r) => r.decided.startsWith("—") && !backticked(r.decided).some((ref) => !ref.includes("#")));
    expect([...untested, ...undocumented].map((r) => r.id).filter((id) => !inGaps(id))).toEqual([]);
    // Gaps name only rules that have rows.
    const ids = new Set(rows.map((r) => r.id));
    const named = [...gaps.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });
});
