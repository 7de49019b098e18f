/**
 * Standard Webhooks signing and `verifyStandardWebhook` (contentsvc/signature) against the official
 * `standardwebhooks` package as an independent implementation: each accepts the other's signatures.
 */
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { signStandardWebhook, standardWebhookKey, verifyStandardWebhook } from "../../src/signature.js";
import { standardWebhookHeaders } from "../../src/webhooks/sign.js";

// Our secrets: whsec_ + 64 hex digits (valid base64 text, 48 key bytes).
const OURS = "whsec_" + "0123456789abcdef".repeat(4);
// A secret in the Standard Webhooks form (whsec_ + base64 of random bytes).
const STANDARD = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = '{"event":"content.created","data":{"collection":"posts"},"timestamp":"2025-06-01T00:00:00.000Z"}';

function libHeaders(secret: string, id: string, at: Date, body = BODY): Record<string, string> {
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) };
}

describe("Standard Webhooks", () => {
  it("keys a secret as the libraries do: base64 of the text after whsec_", () => {
    expect(standardWebhookKey(OURS)).toHaveLength(48);
    expect(Buffer.from(standardWebhookKey(STANDARD)).toString("base64")).toBe("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    // not base64 after the prefix: the UTF-8 bytes of the whole secret (the libraries' "raw" format)
    expect(Buffer.from(standardWebhookKey("whsec_not-base64!")).toString()).toBe("whsec_not-base64!");
  });

  it.each([OURS, STANDARD])("our verifier accepts the official library's signatures (%s)", async (secret) => {
    const now = new Date();
    const headers = libHeaders(secret, "msg_1", now);
    expect(await verifyStandardWebhook(BODY, headers, secret)).toBe(true);
    expect(await verifyStandardWebhook(new TextEncoder().encode(BODY), new Headers(headers), secret)).toBe(true);
    expect(await verifyStandardWebhook(BODY, { "Webhook-Id": headers["webhook-id"], "Webhook-Timestamp": headers["webhook-timestamp"], "Webhook-Signature": headers["webhook-signature"] }, secret)).toBe(true);
  });

  it.each([OURS, STANDARD])("the official library accepts our signatures, async and node:crypto (%s)", async (secret) => {
    const now = Date.now();
    const ts = Math.floor(now / 1000);
    const ours = await signStandardWebhook("msg_2", ts, BODY, secret);
    const headers = { "webhook-id": "msg_2", "webhook-timestamp": String(ts), "webhook-signature": ours };
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    const sync = standardWebhookHeaders({ secret }, "msg_2", Buffer.from(BODY), now);
    expect(sync).toEqual(headers);
  });

  it("matches the published Standard Webhooks test vector", async () => {
    const signature = await signStandardWebhook("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}', STANDARD);
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(new Webhook(STANDARD).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", new Date(1614265330_000), '{"test": 2432232314}')).toBe(signature);
  });

  it("refuses a changed body, id or timestamp, another secret, missing headers and other versions", async () => {
    const now = new Date();
    const h = libHeaders(OURS, "msg_3", now);
    expect(await verifyStandardWebhook(BODY + " ", h, OURS)).toBe(false);
    expect(await verifyStandardWebhook(BODY, { ...h, "webhook-id": "msg_4" }, OURS)).toBe(false);
    expect(await verifyStandardWebhook(BODY, { ...h, "webhook-timestamp": String(Number(h["webhook-timestamp"]) - 1) }, OURS)).toBe(false);
    expect(await verifyStandardWebhook(BODY, h, STANDARD)).toBe(false);
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      const { [name]: _gone, ...rest } = h;
      expect(await verifyStandardWebhook(BODY, rest, OURS)).toBe(false);
    }
    expect(await verifyStandardWebhook(BODY, { ...h, "webhook-signature": h["webhook-signature"].replace("v1,", "v2,") }, OURS)).toBe(false);
    expect(await verifyStandardWebhook(BODY, { ...h, "webhook-signature": "v1,not base64" }, OURS)).toBe(false);
    expect(await verifyStandardWebhook(BODY, { ...h, "webhook-timestamp": "12abc" }, OURS)).toBe(false);
    expect(await verifyStandardWebhook(BODY, h, "")).toBe(false);
  });

  it("accepts any one of several space-separated signatures (a rotation window)", async () => {
    const now = new Date();
    const other = libHeaders(STANDARD, "msg_5", now)["webhook-signature"];
    const h = libHeaders(OURS, "msg_5", now);
    const both = { ...h, "webhook-signature": `v1a,xyz ${other} ${h["webhook-signature"]}` };
    expect(await verifyStandardWebhook(BODY, both, OURS)).toBe(true);
    expect(await verifyStandardWebhook(BODY, both, STANDARD)).toBe(true);
    expect(await verifyStandardWebhook(BODY, { ...h, "webhook-signature": other }, OURS)).toBe(false);
  });

  it("checks the timestamp against a tolerance, 5 minutes by default, both ways", async () => {
    const now = Date.parse("2025-06-01T00:00:00Z");
    const h = libHeaders(OURS, "msg_6", new Date(now));
    expect(await verifyStandardWebhook(BODY, h, OURS, { now: now + 300_000 })).toBe(true);
    expect(await verifyStandardWebhook(BODY, h, OURS, { now: now + 301_000 })).toBe(false);
    expect(await verifyStandardWebhook(BODY, h, OURS, { now: now - 301_000 })).toBe(false);
    expect(await verifyStandardWebhook(BODY, h, OURS, { now: now + 3_600_000, toleranceSeconds: 3600 })).toBe(true);
    expect(await verifyStandardWebhook(BODY, h, OURS, { now: now + 11_000, toleranceSeconds: 10 })).toBe(false);
  });

  it("signs with the previous secret too only while its window is open at the send time", () => {
    const at = Date.parse("2025-06-01T00:00:00Z");
    const target = { secret: OURS, previousSecret: { secret: STANDARD, until: at + 1000 } };
    expect(standardWebhookHeaders(target, "msg_7", Buffer.from(BODY), at)["webhook-signature"].split(" ")).toHaveLength(2);
    expect(standardWebhookHeaders(target, "msg_7", Buffer.from(BODY), at + 1000)["webhook-signature"].split(" ")).toHaveLength(1);
  });
});
