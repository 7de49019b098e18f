/**
 * scrypt for passwords: the cost parameters (OWASP's minimum by default) and the one derivation
 * path, always on libuv's thread pool (never scryptSync on a request), with `maxmem` sized for
 * the cost and at most MAX_PARALLEL_DERIVATIONS at a time, so a burst of sign-ins costs bounded
 * memory. Hashing, verification and the stored format are in passwords.ts.
 *
 * @example
 * const key = await derive("correct horse battery", salt, 64, OWASP_SCRYPT);
 */
import { scrypt, type ScryptOptions } from "node:crypto";

/** scrypt cost parameters. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP Password Storage Cheat Sheet's minimum for scrypt: N=2^17, r=8, p=1 (128 MiB per
 * derivation). The default everywhere, and the only cost the CLI can run with.
 *
 * @example
 * await hashPassword(pw, OWASP_SCRYPT); // "scrypt$131072$8$1$…"
 */
export const OWASP_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });

/**
 * A deliberately weak cost (1 MiB, ~2 ms) for test suites that create many members and end users; only reachable
 * through the `insecureFastPasswordHashing` library option, and upgraded by `needsRehash` at the
 * next sign-in on a service running the default.
 *
 * @example
 * await hashPassword(pw, INSECURE_FAST_SCRYPT); // "scrypt$1024$8$1$…"
 */
export const INSECURE_FAST_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });

/** Each derivation at OWASP cost holds 128 MiB: two at a time bound the memory and leave thread-pool slots for I/O. */
export const MAX_PARALLEL_DERIVATIONS = 2;

/**
 * The memory one derivation needs, as OpenSSL counts it (128·r·(N+2) for V plus 128·r·p for B),
 * plus 1 MiB of headroom: Node's default maxmem (32 MiB) refuses N=2^17, r=8 (128 MiB).
 */
export const scryptMaxmem = ({ N, r, p }: ScryptParams) => 128 * r * (N + 2) + 128 * r * p + 2 ** 20;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Derivations running and queued in this process, e.g. for a metric.
 *
 * @example
 * derivationLoad(); // { running: 2, waiting: 3 } during a burst of five sign-ins
 */
export const derivationLoad = () => ({ running, waiting: waiting.length });

/** The scrypt key of the NFC-normalized `password`, computed asynchronously within the concurrency cap. */
export async function derive(password: string, salt: Buffer, keylen: number, params: ScryptParams): Promise<Buffer> {
  // A finishing derivation hands its slot straight to the next waiter, so the cap holds exactly.
  if (running < MAX_PARALLEL_DERIVATIONS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: scryptMaxmem(params) };
    return await new Promise<Buffer>((resolve, reject) => {
      scrypt(password.normalize("NFC"), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
    });
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
