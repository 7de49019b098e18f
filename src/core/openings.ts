/**
 * Which management changes widen who can read entries (spec 5.4.3: no implication confers more
 * than the grant). Making a collection readable by more callers — anonymous visitors, or accounts
 * through a rule — is reading its entries by another route, so it needs what reading needs:
 * entries:read (docs/access.md, "Changes that open entries"). Pure: no I/O.
 *
 * @example
 * opensCollection({ access: "private", rule: null }, { access: "public", rule: null }); // true
 * opensCollection({ access: "public", rule: null }, { access: "private", rule: null }); // false
 */
import type { CollectionAccess } from "./collections.js";

/** What decides who reads a collection's entries. */
export interface Exposure {
  access: CollectionAccess;
  rule: string | null;
}

/**
 * True when `after` admits readers `before` did not: a new collection that is public or gated
 * (`before` undefined), private → gated/public, gated → public, or a gated collection pointed at
 * another rule (rules are not compared: any other rule may admit others). Closing never opens.
 */
export function opensCollection(before: Exposure | undefined, after: Exposure): boolean {
  if (after.access === "private") return false;
  if (!before || before.access === "private") return true;
  if (before.access === "public") return false;
  return after.access === "public" || after.rule !== before.rule;
}

/**
 * True when replacing a rule's condition can change who reads the collections it gates: it gates
 * at least one and the condition differs (a rename alone changes nobody's access). Loosening and
 * tightening are not told apart: rules are not compared for inclusion.
 */
export function changesGate(gatedCollections: number, before: unknown, after: unknown): boolean {
  return gatedCollections > 0 && JSON.stringify(before) !== JSON.stringify(after);
}
