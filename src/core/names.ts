/**
 * The naming rules of everything people name (collections and their fields, forms and their
 * fields, honeypots, workspaces, attributes in rules): one place that the server's schemas and
 * the dashboard's inputs both read, so a hint never promises what the API refuses. Pure, no
 * imports: the dashboard bundles this file as it is.
 *
 * `pattern` is written to be valid with the `u` and the `v` flag alike (a literal `-` in a class
 * is escaped), because browsers compile an input's `pattern` attribute with `v`.
 *
 * @example
 * nameProblem(NAME_RULES.collection, "my-posts"); // "must be 1-63 lowercase letters, digits or underscores, starting with a letter"
 * <input :pattern="NAME_RULES.collection.pattern">
 */

/** One naming rule: the regular expression (no anchors) and what it accepts, in words. */
export interface NameRule {
  /** Regular expression source, matched against the whole name. */
  readonly pattern: string;
  /** What the rule accepts, completing "must be …". */
  readonly hint: string;
  /** A refusal checked before the pattern (reserved names), as the server words it. */
  readonly reserved?: (name: string) => string | undefined;
}

/** System keys of an entry (spec 2.5); no user field may take one of these names. */
export const SYSTEM_FIELDS = ["id", "_status", "_published_at", "_created_by", "_created_at", "_updated_at"] as const;

/**
 * Names that are paths of their own under /api/v1/ (media, forms, accounts), so a collection of
 * that name could never be delivered.
 */
export const RESERVED_COLLECTION_NAMES: readonly string[] = ["media", "forms", "accounts"];

const quoted = (name: string) => JSON.stringify(name.slice(0, 64));

export const NAME_RULES = {
  /** A collection's name: part of its delivery URL. */
  collection: {
    pattern: "[a-z][a-z0-9_]{0,62}",
    hint: "1-63 lowercase letters, digits or underscores, starting with a letter",
    reserved: (name: string) => (RESERVED_COLLECTION_NAMES.includes(name) ? "is reserved (a path under /api/v1/)" : undefined),
  },
  /**
   * A collection field's name. Every name starting with `_` is refused (`__proto__` among them),
   * so no system key of an entry can collide with one, now or later.
   */
  collectionField: {
    pattern: "[A-Za-z][A-Za-z0-9_]{0,62}",
    hint: "1-63 letters, digits or underscores, starting with a letter",
    reserved: (name: string) =>
      name === "id"
        ? "id is a system field"
        : name.startsWith("_")
          ? `${quoted(name)} is reserved: names starting with _ belong to the system fields of every entry (${SYSTEM_FIELDS.slice(1).join(", ")})`
          : undefined,
  },
  /** A form's slug: part of its public URL. */
  formSlug: {
    pattern: "[a-z0-9](?:[a-z0-9\\-]{0,62}[a-z0-9])?",
    hint: "1-64 lowercase letters, digits or dashes, not starting or ending with a dash",
  },
  /** A form field's name. */
  formField: {
    pattern: "[A-Za-z][A-Za-z0-9_\\-]{0,62}",
    hint: "1-63 letters, digits, underscores or dashes, starting with a letter",
    reserved: (name: string) =>
      name.startsWith("_") ? `${quoted(name)} is reserved: names starting with _ belong to the honeypot and the submission's own fields (_submitted_at)` : undefined,
  },
  /** A form's honeypot field name. */
  honeypot: {
    pattern: "[A-Za-z_][A-Za-z0-9_\\-]{0,62}",
    hint: "1-63 letters, digits, underscores or dashes",
    reserved: (name: string) => (name === "__proto__" ? "__proto__ is reserved: choose another honeypot name" : undefined),
  },
  /** A workspace's slug. */
  workspace: {
    pattern: "[a-z][a-z0-9\\-]{0,62}",
    hint: "1-63 lowercase letters, digits or dashes, starting with a letter",
  },
  /** The account field a rule compares: an end-user attribute name, or email. */
  ruleField: {
    pattern: "[A-Za-z_][A-Za-z0-9_\\-]{0,63}",
    hint: "an attribute name or email (letters, digits, _ and -)",
  },
} as const satisfies Record<string, NameRule>;

/** The rule as an anchored regular expression (the `u` flag: Node's floor; `v` agrees). */
export function nameRegExp(rule: NameRule): RegExp {
  return new RegExp(`^${rule.pattern}$`, "u");
}

/** The message a rule refuses `name` with, as the server words it (`undefined`: accepted). */
export function nameProblem(rule: NameRule, name: string): string | undefined {
  return rule.reserved?.(name) ?? (nameRegExp(rule).test(name) ? undefined : `must be ${rule.hint}`);
}
