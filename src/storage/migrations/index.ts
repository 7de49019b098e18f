/**
 * Versioned migrations, applied in order at start. Append only: never edit a shipped migration.
 */
import type { Dialect } from "../sql.js";
import { initial } from "./001-initial.js";
import { contentVersions } from "./002-content-versions.js";
import { entryCounts } from "./003-entry-counts.js";

export interface Migration {
  id: number;
  name: string;
  sql: (dialect: Dialect) => string;
}

export const migrations: Migration[] = [
  { id: 1, name: "initial", sql: () => initial },
  { id: 2, name: "content-versions", sql: contentVersions },
  { id: 3, name: "entry-counts", sql: entryCounts },
];
