/**
 * The embedded default keeps drafts, form submissions, end users' e-mails and password hashes in
 * plain files: only the service's own user may read them, whatever the process umask. Directories
 * are created 0700 and files 0600; a data directory found open to others is tightened at start.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { join } from "node:path";
import type { Driver } from "unstorage";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) 0700; an existing `dir` that group or others may enter is
 * chmod-ed to 0700 and its former mode returned (undefined when nothing changed).
 */
export function preparePrivateDir(dir: string): number | undefined {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  chmodSync(dir, PRIVATE_DIR_MODE);
  return mode;
}

/**
 * Creates the SQLite file 0600 before the engine opens it (SQLite gives its -wal and -shm the
 * database file's mode), and tightens an existing database and its -wal/-shm.
 */
export function preparePrivateDatabaseFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  }
}

/** unstorage's fs driver writes with the umask's mode: this one makes every file it writes 0600. */
export function privateFsDriver(driver: Driver, base: string): Driver {
  // The fs driver's own key → path mapping (it has validated the key by the time the write returns).
  const pathOf = (key: string) => join(base, key.replace(/:/g, "/"));
  return {
    ...driver,
    async setItem(key, value, opts) {
      await driver.setItem!(key, value, opts);
      await chmod(pathOf(key), PRIVATE_FILE_MODE);
    },
    async setItemRaw(key, value, opts) {
      await driver.setItemRaw!(key, value, opts);
      await chmod(pathOf(key), PRIVATE_FILE_MODE);
    },
  };
}
