/**
 * The local certificate `svc webhooks listen` serves HTTPS with (deliveries only go to https://):
 * a CA made for this data directory and a leaf for localhost, 127.0.0.1 and ::1 signed by it,
 * generated once into `<data>/webhooks-tls/` and reused while valid. The CA's private key is
 * discarded after signing, so the CA a sender is told to trust can vouch for nothing else.
 * Certificates are built with @peculiar/x509 over node:crypto's WebCrypto.
 */
import "reflect-metadata";
import { X509Certificate, webcrypto } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import * as x509 from "@peculiar/x509";

export interface LocalTls {
  /** The CA certificate a sending process trusts with NODE_EXTRA_CA_CERTS. */
  caFile: string;
  cert: string;
  key: string;
  /** True when this call generated the files. */
  created: boolean;
}

/** Leaf names: what a local receiver URL can name. */
export const LOCAL_TLS_NAMES = ["localhost", "127.0.0.1", "::1"];
const DAY = 86_400_000;
const VALID_DAYS = 825;
const SIGNING = { name: "ECDSA", hash: "SHA-256" };
const KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };

/** The data directory's local receiver certificate, generated on first use. */
export async function localTls(dataDir: string, now = Date.now()): Promise<LocalTls> {
  const dir = resolve(dataDir, "webhooks-tls");
  const files = { ca: join(dir, "ca.pem"), cert: join(dir, "cert.pem"), key: join(dir, "key.pem") };
  const existing = readValid(files, now);
  if (existing) return { caFile: files.ca, ...existing, created: false };

  x509.cryptoProvider.set(webcrypto as Crypto);
  const subtle = webcrypto.subtle;
  const notBefore = new Date(now - DAY);
  const notAfter = new Date(now + VALID_DAYS * DAY);
  const caKeys = (await subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=contentsvc local webhook receiver CA (${new Date(now).toISOString().slice(0, 10)})`,
    keys: caKeys,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leafKeys = (await subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    subject: "CN=localhost",
    issuer: ca.subject,
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(LOCAL_TLS_NAMES.map((n) => ({ type: isIP(n) ? ("ip" as const) : ("dns" as const), value: n }))),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
    ],
  });
  const key = x509.PemConverter.encode(await subtle.exportKey("pkcs8", leafKeys.privateKey), "PRIVATE KEY");
  const cert = leaf.toString("pem") + "\n";
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(files.ca, ca.toString("pem") + "\n", { mode: 0o600 });
  writeFileSync(files.cert, cert, { mode: 0o600 });
  writeFileSync(files.key, key + "\n", { mode: 0o600 });
  return { caFile: files.ca, cert, key, created: true };
}

/** The stored pair when the leaf is signed by the stored CA and valid for at least another day. */
function readValid(files: { ca: string; cert: string; key: string }, now: number): { cert: string; key: string } | undefined {
  if (!existsSync(files.ca) || !existsSync(files.cert) || !existsSync(files.key)) return undefined;
  try {
    const ca = new X509Certificate(readFileSync(files.ca));
    const cert = readFileSync(files.cert, "utf8");
    const leaf = new X509Certificate(cert);
    if (!leaf.checkIssued(ca) || !leaf.verify(ca.publicKey)) return undefined;
    if (Date.parse(leaf.validTo) - now < DAY || Date.parse(ca.validTo) - now < DAY) return undefined;
    return { cert, key: readFileSync(files.key, "utf8") };
  } catch {
    return undefined;
  }
}
