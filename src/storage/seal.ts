/**
 * Secrets at rest (webhook secrets, custom header values): AES-256-GCM under a master key.
 * A sealed value is `v1.<kid>.<iv>.<tag>.<ciphertext>` (base64url parts); `kid` names the master
 * key so keys can be rotated: seal with the first key, open with whichever key the value names.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";

export interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** Id of the key new values are sealed with. */
  readonly keyId: string;
}

const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

/** Parses a base64 master key; it must decode to exactly 32 bytes. */
export function parseMasterKey(value: string, source = "secretKey (SVC_SECRET_KEY)"): Buffer {
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32) {
    throw new Error(`${source} must be 32 bytes encoded as base64 (got ${key.length} bytes); generate one with: openssl rand -base64 32`);
  }
  return key;
}

/**
 * Creates a sealer. `keys[0]` seals; every key opens values sealed with it.
 *
 * @example
 * const sealer = createSealer([randomBytes(32)]);
 * sealer.open(sealer.seal("whsec_…")) // "whsec_…"
 */
export function createSealer(keys: Buffer[]): Sealer {
  if (keys.length === 0) throw new Error("createSealer needs at least one 32-byte key");
  const byId = new Map(keys.map((k) => [keyId(k), k]));
  const current = keys[0]!;
  const currentId = keyId(current);
  return {
    keyId: currentId,
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ["v1", currentId, iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(".");
    },
    open(sealed) {
      const [version, kid, iv, tag, ct] = sealed.split(".");
      if (version !== "v1" || !kid || iv === undefined || tag === undefined || ct === undefined) {
        throw new Error("sealed value is malformed");
      }
      const key = byId.get(kid);
      if (!key) throw new Error(`sealed value names unknown master key ${kid}; is the master key (SVC_SECRET_KEY) the one it was sealed with?`);
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/**
 * The master key: `secretKey` (plus `oldKeys`, for rotation) or, on the embedded default,
 * `<data>/secret.key`, generated with mode 0600 on first run.
 */
export function loadMasterKeys(options: { secretKey?: string; oldKeys?: string[]; dataDir?: string }): Buffer[] {
  const old = (options.oldKeys ?? []).filter((s) => s.trim()).map((s) => parseMasterKey(s, "oldSecretKeys (SVC_SECRET_KEYS_OLD)"));
  if (options.secretKey) return [parseMasterKey(options.secretKey), ...old];
  if (!options.dataDir) throw new Error("no master key: give secretKey (SVC_SECRET_KEY) or a data directory");
  const file = join(options.dataDir, "secret.key");
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  chmodSync(file, 0o600);
  return [parseMasterKey(readFileSync(file, "utf8"), file), ...old];
}
