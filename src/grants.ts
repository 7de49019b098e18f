/**
 * `contentsvc/grants`: the grant model of spec 2.2 and 5.4 — parse, expand (exactly three
 * implications, computed at check time), check.
 *
 * @example
 * import { hasGrant } from "contentsvc/grants";
 * hasGrant(["entries:write"], "collections:read"); // true (any entries grant implies collections:read)
 * hasGrant(["forms:read"], "submissions:read"); // false (nothing implies submissions:read)
 */
export {
  RESOURCES,
  ACTIONS,
  ALL_GRANTS,
  isGrant,
  parseGrant,
  parseGrants,
  expandGrants,
  hasGrant,
  assertGrant,
  type Resource,
  type Action,
  type Grant,
} from "./core/grants.js";
