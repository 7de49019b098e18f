// Imports the built `contentsvc/signature` in whatever runtime runs this file and checks it
// against the GitHub test vector and a sign/verify round trip. Prints "signature ok".
import { readFileSync } from "node:fs";
import { signPayload, signStandardWebhook, verifySignature, verifyStandardWebhook } from "contentsvc/signature";

const source = readFileSync(new URL("../../dist/signature.mjs", import.meta.url), "utf8");
if (/^\s*import\s|\brequire\(|^\s*export\s.+\sfrom\s/m.test(source)) throw new Error("dist/signature.mjs must import nothing");

const secret = "It's a Secret to Everybody";
const expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
if ((await signPayload("Hello, World!", secret)) !== expected) throw new Error("GitHub vector: wrong signature");
if (!(await verifySignature("Hello, World!", expected, secret))) throw new Error("GitHub vector: did not verify");
if (await verifySignature("Hello, World?", expected, secret)) throw new Error("tampered body verified");
const body = new TextEncoder().encode(JSON.stringify({ event: "content.updated", data: {}, timestamp: new Date().toISOString() }));
if (!(await verifySignature(body, await signPayload(body, "whsec_x"), "whsec_x"))) throw new Error("round trip failed");
// Standard Webhooks: the published test vector, then a verify within the tolerance.
const sw = await signStandardWebhook("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}', "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
if (sw !== "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=") throw new Error("Standard Webhooks vector: wrong signature");
const swHeaders = { "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": "1614265330", "webhook-signature": sw };
if (!(await verifyStandardWebhook('{"test": 2432232314}', swHeaders, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", { now: 1614265330_000 }))) throw new Error("Standard Webhooks vector: did not verify");
console.log("signature ok");
