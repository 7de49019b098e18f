// Imports the built `contentsvc/signature` in whatever runtime runs this file and checks it
// against the GitHub test vector and a sign/verify round trip. Prints "signature ok".
import { readFileSync } from "node:fs";
import { signPayload, verifySignature } from "contentsvc/signature";

const source = readFileSync(new URL("../../dist/signature.mjs", import.meta.url), "utf8");
if (/^\s*import\s|\brequire\(|^\s*export\s.+\sfrom\s/m.test(source)) throw new Error("dist/signature.mjs must import nothing");

const secret = "It's a Secret to Everybody";
const expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
if ((await signPayload("Hello, World!", secret)) !== expected) throw new Error("GitHub vector: wrong signature");
if (!(await verifySignature("Hello, World!", expected, secret))) throw new Error("GitHub vector: did not verify");
if (await verifySignature("Hello, World?", expected, secret)) throw new Error("tampered body verified");
const body = new TextEncoder().encode(JSON.stringify({ event: "content.updated", data: {}, timestamp: new Date().toISOString() }));
if (!(await verifySignature(body, await signPayload(body, "whsec_x"), "whsec_x"))) throw new Error("round trip failed");
console.log("signature ok");
