/**
 * Connect-time address check (DESIGN 5): every address a hostname resolves to is checked, and the
 * socket connects only to checked addresses, so a name that later resolves to a private address
 * (DNS rebinding) is refused. TLS still verifies the certificate against the URL hostname.
 */
import { readFileSync } from "node:fs";
import { promises as dnsPromises, type LookupAddress, type LookupOptions } from "node:dns";
import { Agent } from "node:https";
import { isIP } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import { addressRefusal } from "../core/webhook-policy.js";
import type { LookupAll } from "./types.js";

export interface PinnedAgentOptions {
  /**
   * Admit loopback/private receivers (development). Link-local, multicast and unspecified addresses
   * stay refused (the save-time policy of core/webhook-policy). Default `false`.
   */
  allowPrivateTargets?: boolean;
  /** Resolver. Default `dns.promises.lookup(host, { all: true })`. */
  lookup?: LookupAll;
  /** Extra trusted CAs, added to the bundled roots and `NODE_EXTRA_CA_CERTS`. */
  ca?: string | string[];
  /** Sockets per host. Default `Infinity` (the dispatcher limits per host itself). */
  maxSockets?: number;
}

/**
 * Error of a refused target address; its message names the address and, when allowing private
 * targets would admit it, that switch. Never anything secret.
 */
export class AddressNotAllowedError extends Error {
  readonly code = "ERR_WEBHOOK_ADDRESS_NOT_ALLOWED";
  constructor(address: string, why?: string) {
    super(`address ${address} is not allowed${why ? ` (${why})` : ""}`);
    this.name = "AddressNotAllowedError";
  }
}

/**
 * A keep-alive HTTPS agent whose DNS step resolves, checks every address and pins the socket to
 * them. Node skips `lookup` for IP-literal hosts: check those with `checkLiteralHost` first.
 *
 * @example
 * const agent = createPinnedAgent({ lookup: async () => [{ address: "203.0.113.7", family: 4 }] });
 * https.request("https://hooks.example/x", { agent, method: "POST" });
 */
export function createPinnedAgent(options: PinnedAgentOptions = {}): Agent {
  const resolve = options.lookup ?? defaultLookup;
  const allowPrivate = options.allowPrivateTargets ?? false;
  const lookup = (
    hostname: string,
    opts: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolveChecked(resolve, hostname, allowPrivate, opts.family).then(
      (addresses) => {
        if (opts.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
  const ca = toList(options.ca);
  return new Agent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? Infinity,
    lookup,
    // One secure context for every connection: passing `ca` per request would rebuild the trust
    // store on each handshake.
    ...(ca.length > 0 ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...extraCaCerts(), ...ca] }) } : {}),
  });
}

/**
 * Throws `AddressNotAllowedError` when `hostname` is an IP literal in a forbidden range (Node
 * connects to literals without calling `lookup`). Names pass here: they are checked at connect time.
 */
export function checkLiteralHost(hostname: string, allowPrivateTargets: boolean): void {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) === 0) return;
  const why = addressRefusal(bare, { allowPrivate: allowPrivateTargets });
  if (why !== undefined) throw new AddressNotAllowedError(bare, why);
}

async function resolveChecked(
  resolve: LookupAll,
  hostname: string,
  allowPrivate: boolean,
  family: number | string | undefined,
): Promise<LookupAddress[]> {
  const all = await resolve(hostname);
  if (all.length === 0) throw Object.assign(new Error(`no address found for ${hostname}`), { code: "ENOTFOUND" });
  // Every answer is checked, not only the one we connect to: a mixed answer is refused whole.
  // With allowPrivate the policy still refuses link-local (cloud metadata), multicast, unspecified.
  for (const { address } of all) {
    const why = addressRefusal(address, { allowPrivate });
    if (why !== undefined) throw new AddressNotAllowedError(address, why);
  }
  const wanted = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
  if (wanted.length === 0) throw Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: "ENOTFOUND" });
  return wanted.map(({ address, family: f }) => ({ address, family: f }));
}

const defaultLookup: LookupAll = async (hostname) => {
  const answers = await dnsPromises.lookup(hostname, { all: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function toList(ca: string | string[] | undefined): string[] {
  if (ca === undefined) return [];
  return Array.isArray(ca) ? ca : [ca];
}

// Node adds NODE_EXTRA_CA_CERTS only to its default store; an explicit store must add them again.
let extraCache: string[] | undefined;
function extraCaCerts(): string[] {
  if (extraCache) return extraCache;
  const file = process.env.NODE_EXTRA_CA_CERTS;
  extraCache = [];
  if (file) {
    try {
      extraCache = [readFileSync(file, "utf8")];
    } catch {
      // Node itself only warns about an unreadable file; so do we, by ignoring it.
    }
  }
  return extraCache;
}
