// The condition editor's model: a tree that can only be one of the language's node kinds, turned
// into the API's JSON by construction (so the editor cannot produce invalid JSON).
export type ScalarKind = "text" | "number" | "true" | "false" | "null";
export interface Node {
  kind: "signed_in" | "eq" | "in" | "all" | "any";
  field: string;
  values: { kind: ScalarKind; text: string }[];
  children: Node[];
}

export const newNode = (kind: Node["kind"] = "signed_in"): Node => ({ kind, field: "email", values: [{ kind: "text", text: "" }], children: [] });

const scalar = (v: { kind: ScalarKind; text: string }) =>
  v.kind === "number" ? Number(v.text) || 0 : v.kind === "true" ? true : v.kind === "false" ? false : v.kind === "null" ? null : v.text;

export function toCondition(n: Node): Record<string, unknown> {
  switch (n.kind) {
    case "signed_in":
      return { signed_in: true };
    case "eq":
      return { account: { field: n.field, eq: scalar(n.values[0] ?? { kind: "text", text: "" }) } };
    case "in":
      return { account: { field: n.field, in: n.values.map(scalar) } };
    default:
      return { [n.kind]: n.children.map(toCondition) };
  }
}

const fromScalar = (v: unknown): { kind: ScalarKind; text: string } =>
  typeof v === "number" ? { kind: "number", text: String(v) } : v === true ? { kind: "true", text: "" } : v === false ? { kind: "false", text: "" } : v === null ? { kind: "null", text: "" } : { kind: "text", text: String(v) };

export function fromCondition(c: unknown): Node {
  const o = (c ?? {}) as Record<string, unknown>;
  if ("all" in o || "any" in o) {
    const kind = "all" in o ? "all" : "any";
    return { ...newNode(kind), children: ((o[kind] as unknown[]) ?? []).map(fromCondition) };
  }
  if ("account" in o) {
    const a = o.account as { field: string; eq?: unknown; in?: unknown[] };
    return "in" in a
      ? { ...newNode("in"), field: a.field, values: (a.in ?? []).map(fromScalar) }
      : { ...newNode("eq"), field: a.field, values: [fromScalar(a.eq)] };
  }
  return newNode("signed_in");
}

/**
 * The editor's key for a path the API names (`condition.any.1.account.field` → `cond-1-field`,
 * `…account.eq` or `…account.in.2` → the value input `cond-…-v-N`, a list → its node `cond-…`),
 * so a refusal is shown beside the input it is about. Other paths are returned as they are.
 */
export function conditionKey(path: string): string {
  const parts = path.split(".");
  if (parts[0] !== "condition") return path;
  let key = "cond";
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if ((part === "all" || part === "any") && /^\d+$/.test(parts[i + 1] ?? "")) key += `-${parts[++i]}`;
    else if (part === "account") {
      const what = parts[i + 1];
      if (what === "field") return `${key}-field`;
      if (what === "eq" || what === "in") return `${key}-v-${/^\d+$/.test(parts[i + 2] ?? "") ? parts[i + 2] : 0}`;
      return key;
    } else return key;
  }
  return key;
}

/** Every key of the tree under `path` that can carry a message: each node, its field and values. */
export function conditionKeys(n: Node, path = "cond"): string[] {
  return [path, `${path}-field`, ...n.values.map((_, i) => `${path}-v-${i}`), ...n.children.flatMap((c, i) => conditionKeys(c, `${path}-${i}`))];
}
