import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { derivationLoad, derive, INSECURE_FAST_SCRYPT, MAX_PARALLEL_DERIVATIONS, OWASP_SCRYPT, scryptMaxmem } from "../../src/core/scrypt.js";
import {
  DUMMY_PASSWORD_HASH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  hashPassword,
  needsRehash,
  validatePassword,
  verifyAgainstDummy,
  verifyPassword,
} from "../../src/core/passwords.js";

const FORMAT = /^scrypt\$131072\$8\$1\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;
const PW = "correct horse battery staple";
// The logic tests hash at the cheap test cost; the OWASP cost is tested where the cost is the point.
const FAST = INSECURE_FAST_SCRYPT;
const ANY = /^scrypt\$\d+\$8\$1\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

describe("hashPassword / verifyPassword", () => {
  it("encodes scrypt$131072$8$1$<16-byte salt>$<64-byte hash> (OWASP's minimum N=2^17, r=8, p=1)", async () => {
    const stored = await hashPassword(PW);
    const m = FORMAT.exec(stored);
    expect(m).not.toBeNull();
    expect(Buffer.from(m![1], "base64")).toHaveLength(16);
    expect(Buffer.from(m![2], "base64")).toHaveLength(64);
    expect(stored).not.toContain(PW);
  });

  it("round-trips and rejects a wrong password", async () => {
    const stored = await hashPassword(PW);
    expect(await verifyPassword(PW, stored)).toBe(true);
    expect(await verifyPassword(PW + " ", stored)).toBe(false);
    const fast = await hashPassword(PW, FAST);
    expect(await verifyPassword(PW, fast)).toBe(true);
    expect(await verifyPassword(PW.toUpperCase(), fast)).toBe(false);
    expect(await verifyPassword("", fast)).toBe(false);
  });

  it("is the scrypt derivation it claims to be", async () => {
    const stored = await hashPassword(PW);
    const [, salt, hash] = FORMAT.exec(stored)!;
    const expected = scryptSync(PW, Buffer.from(salt, "base64"), 64, { ...OWASP_SCRYPT, maxmem: scryptMaxmem(OWASP_SCRYPT) });
    expect(Buffer.from(hash, "base64").equals(expected)).toBe(true);
  });

  it("uses a different salt each time", async () => {
    const [a, b] = await Promise.all([hashPassword(PW, FAST), hashPassword(PW, FAST)]);
    expect(a).not.toBe(b);
    expect(ANY.exec(a)![1]).not.toBe(ANY.exec(b)![1]);
    expect(await verifyPassword(PW, a)).toBe(true);
    expect(await verifyPassword(PW, b)).toBe(true);
  });

  it("handles Unicode and normalizes to NFC", async () => {
    const stored = await hashPassword("pässwörd-🔑-\u00e9t\u00e9", FAST);
    expect(await verifyPassword("pässwörd-🔑-\u00e9t\u00e9", stored)).toBe(true);
    expect(await verifyPassword("pässwörd-🔑-e\u0301te\u0301", stored)).toBe(true);
    expect(await verifyPassword("passwörd-🔑-\u00e9t\u00e9", stored)).toBe(false);
  });

  it("verifies a hash with other valid parameters", async () => {
    const salt = randomBytes(16);
    const hash = scryptSync(PW, salt, 32, { N: 1024, r: 4, p: 2 });
    const stored = `scrypt$1024$4$2$${salt.toString("base64")}$${hash.toString("base64")}`;
    expect(await verifyPassword(PW, stored)).toBe(true);
    expect(await verifyPassword("wrong password", stored)).toBe(false);
  });

  it("detects tampering with the stored hash", async () => {
    const stored = await hashPassword(PW, FAST);
    const parts = stored.split("$");
    const hash = Buffer.from(parts[5], "base64");
    hash[0] ^= 1;
    parts[5] = hash.toString("base64");
    expect(await verifyPassword(PW, parts.join("$"))).toBe(false);
  });

  it("resolves false, never rejects, on malformed stored values", async () => {
    const good = await hashPassword(PW);
    const [, , , , salt, hash] = good.split("$");
    const malformed: unknown[] = [
      "",
      "plaintext",
      PW,
      good.replace("scrypt$", "bcrypt$"),
      good.replace("$131072$", "$131071$"),
      good.replace("$131072$", "$abc$"),
      good.replace("$131072$", "$0$"),
      good.replace("$131072$", "$1073741824$"),
      good.replace("$131072$8$", "$131072$999$"),
      good.replace("$8$1$", "$8$-1$"),
      // Over 256 MiB for one derivation: refused rather than allocated.
      good.replace("$131072$8$", "$1048576$8$"),
      good.replace("$131072$8$", "$131072$32$"),
      `scrypt$16384$8$1$${salt}`,
      `scrypt$16384$8$1$${salt}$${hash}$extra`,
      `scrypt$16384$8$1$$${hash}`,
      `scrypt$16384$8$1$${salt}$`,
      `scrypt$16384$8$1$${salt}$!!not-base64!!`,
      `scrypt$16384$8$1$${salt}$${hash.slice(0, 8)}`,
      `scrypt$16384$8$1$AAAA$${hash}`,
      `${good}\n`,
      null,
      undefined,
      42,
      {},
    ];
    for (const stored of malformed) {
      await expect(verifyPassword(PW, stored as string, FAST), String(stored)).resolves.toBe(false);
    }
  });

  it("resolves false for a non-string or absurdly long password", async () => {
    const stored = await hashPassword(PW, FAST);
    await expect(verifyPassword(undefined as unknown as string, stored)).resolves.toBe(false);
    await expect(verifyPassword("x".repeat(100_000), stored)).resolves.toBe(false);
  });
});

describe("cost parameters, memory and rehash", () => {
  it("defaults to OWASP's minimum and sets maxmem above the 128 MiB it needs", () => {
    expect(OWASP_SCRYPT).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptMaxmem(OWASP_SCRYPT)).toBeGreaterThan(128 * 1024 * 1024);
    expect(scryptMaxmem(OWASP_SCRYPT)).toBeLessThan(130 * 1024 * 1024);
    // Node's default maxmem (32 MiB) would refuse the OWASP cost outright.
    expect(() => scryptSync(PW, "salt", 64, OWASP_SCRYPT)).toThrow(/memory/i);
  });

  it("hashes off the event loop: timers keep firing while a derivation runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      await hashPassword(PW);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it(`runs at most ${MAX_PARALLEL_DERIVATIONS} derivations at once, queues the rest, and completes them all`, async () => {
    const salt = randomBytes(16);
    const keys = Array.from({ length: 5 }, (_, i) => derive(`${PW}${i}`, salt, 64, FAST));
    expect(derivationLoad()).toEqual({ running: MAX_PARALLEL_DERIVATIONS, waiting: 5 - MAX_PARALLEL_DERIVATIONS });
    const done = await Promise.all(keys);
    expect(new Set(done.map((k) => k.toString("hex"))).size).toBe(5);
    expect(done[4]!.equals(scryptSync(`${PW}4`, salt, 64, FAST))).toBe(true);
    expect(derivationLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it("hashes at the cost it is given", async () => {
    expect(await hashPassword(PW, INSECURE_FAST_SCRYPT)).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await hashPassword(PW, { N: 16384, r: 8, p: 1 })).toMatch(/^scrypt\$16384\$8\$1\$/);
  });

  it("needsRehash: true for any weaker parameter, never for equal or stronger ones", async () => {
    const at = (N: number, r = 8, p = 1, keyLength = 64) =>
      `scrypt$${N}$${r}$${p}$${randomBytes(16).toString("base64")}$${randomBytes(keyLength).toString("base64")}`;
    expect(needsRehash(at(16384))).toBe(true); // the old default
    expect(needsRehash(at(1024))).toBe(true); // INSECURE_FAST_SCRYPT
    expect(needsRehash(at(131072, 4))).toBe(true);
    expect(needsRehash(at(131072, 8, 1, 32))).toBe(true);
    expect(needsRehash(at(131072))).toBe(false);
    expect(needsRehash(at(262144))).toBe(false);
    expect(needsRehash(at(131072, 8, 2))).toBe(false);
    // A service running the fast test cost never downgrades a strong hash.
    expect(needsRehash(at(131072), INSECURE_FAST_SCRYPT)).toBe(false);
    expect(needsRehash("not a hash")).toBe(false);
  });
});

describe("dummy verification for unknown emails", () => {
  it("DUMMY_PASSWORD_HASH has the real parameters and matches nothing", async () => {
    const m = FORMAT.exec(DUMMY_PASSWORD_HASH);
    expect(m).not.toBeNull();
    expect(Buffer.from(m![1], "base64")).toHaveLength(16);
    expect(Buffer.from(m![2], "base64")).toHaveLength(64);
    expect(await verifyPassword(PW, DUMMY_PASSWORD_HASH)).toBe(false);
  });

  it("verifyAgainstDummy always resolves false after doing the work", async () => {
    expect(await verifyAgainstDummy(PW, FAST)).toBe(false);
    expect(await verifyAgainstDummy("", FAST)).toBe(false);
    expect(await verifyAgainstDummy(null as unknown as string, FAST)).toBe(false);
    const t0 = performance.now();
    await verifyAgainstDummy(PW);
    // Not a timing-equality test (too noisy); just proves a real scrypt derivation ran.
    expect(performance.now() - t0).toBeGreaterThan(2);
  });
});

describe("validatePassword", () => {
  it.each([
    ["a".repeat(PASSWORD_MIN_LENGTH), true],
    ["a".repeat(PASSWORD_MAX_LENGTH), true],
    ["🔑".repeat(PASSWORD_MIN_LENGTH), true],
    ["🔑".repeat(PASSWORD_MAX_LENGTH), true],
    ["        ", true],
    ["a".repeat(PASSWORD_MIN_LENGTH - 1), false],
    ["🔑".repeat(PASSWORD_MIN_LENGTH - 1), false],
    ["a".repeat(PASSWORD_MAX_LENGTH + 1), false],
    ["🔑".repeat(PASSWORD_MAX_LENGTH + 1), false],
    ["a".repeat(1_000_000), false],
    ["", false],
  ])("validatePassword(%#) ok=%s", (pw, ok) => {
    if (ok) expect(() => validatePassword(pw)).not.toThrow();
    else expect(() => validatePassword(pw)).toThrow(/password must be at (least 8|most 1024) characters/);
  });

  it.each([undefined, null, 12345678, ["password1"]])("rejects non-string %j with a 400", (pw) => {
    let err: unknown;
    try {
      validatePassword(pw);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ status: 400, message: "password must be a string", details: { field: "password" } });
  });

  it("hashPassword refuses passwords that break the rule", async () => {
    await expect(hashPassword("short")).rejects.toMatchObject({ status: 400 });
    await expect(hashPassword("a".repeat(1025))).rejects.toThrow("at most 1024");
  });
});
