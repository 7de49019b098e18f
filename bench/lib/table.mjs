/**
 * Result rows and the printed table: scenario, figure, reference figure from the same run, ratio,
 * target, met?.
 */
import { fmt } from "./util.mjs";

/**
 * A result row. `value`/`ref` are medians; `ratio` defaults to value/ref; `met` is true, false or
 * null (no target / not measured); `note` explains n/a and gaps.
 */
export function row({ scenario, figure, value, unit = "", ref, refLabel, ratio, target = "", met = null, note = "", runs = [] }) {
  const r = ratio ?? (typeof value === "number" && typeof ref === "number" && ref > 0 ? value / ref : undefined);
  return { scenario, figure, value, unit, ref, refLabel, ratio: r, target, met, note, runs };
}

/** Renders rows as a fixed-width text table (also used, as Markdown, by docs/benchmarks.md). */
export function renderTable(rows, { markdown = false } = {}) {
  const head = ["scenario", "figure", "value", "reference", "ratio", "target", "met?"];
  const lines = rows.map((r) => [
    r.scenario,
    r.figure,
    r.value === undefined ? (r.note ? "n/a" : "-") : typeof r.value === "number" ? fmt(r.value, r.unit) : String(r.value),
    r.ref === undefined ? "-" : `${fmt(r.ref, r.unit)}${r.refLabel ? ` (${r.refLabel})` : ""}`,
    r.ratio === undefined ? "-" : r.ratio >= 10 ? `${fmt(r.ratio)}x` : `${(r.ratio * 100).toFixed(1)}%`,
    r.target || "-",
    r.met === true ? "yes" : r.met === false ? "NO" : r.value === undefined && r.note ? "n/a" : "-",
  ]);
  if (markdown) {
    const esc = (s) => String(s).replaceAll("|", "\\|");
    return [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...lines.map((l) => `| ${l.map(esc).join(" | ")} |`)].join("\n");
  }
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const pad = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ").trimEnd();
  return [pad(head), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(pad)].join("\n");
}

/** Notes under the table: n/a reasons and explained gaps. */
export function renderNotes(rows) {
  return rows.filter((r) => r.note).map((r) => `- ${r.scenario} / ${r.figure}: ${r.note}`).join("\n");
}
