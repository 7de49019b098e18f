/**
 * The dispatcher's `onAttempt` (the opt-in delivery log's feed), against a real HTTPS receiver:
 * called only for targets with logDeliveries, never with the secret or a custom header value; a
 * failing recorder never affects delivery; close() waits for records still being written.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher, type AttemptRecord } from "../../src/webhooks/index.js";
import { CA, SECRET, captureLogger, contentEvent, startReceiver, target, type Receiver } from "./helpers.js";

describe("onAttempt", () => {
  let receiver: Receiver | undefined;
  afterEach(async () => receiver?.close());

  it("records attempts of logging targets only, without secrets or custom header values", async () => {
    receiver = await startReceiver();
    const records: AttemptRecord[] = [];
    const d = createDispatcher({ source: { targetsFor: async () => [] }, allowPrivateTargets: true, ca: CA, onAttempt: (r) => void records.push(r) });
    const headers = { "X-Token": "value-not-logged" };
    expect((await d.deliverNow(target(receiver.url(), { headers }), contentEvent("content.created"))).ok).toBe(true);
    expect(records).toEqual([]);
    expect((await d.deliverNow(target(receiver.url(), { headers, logDeliveries: true }), contentEvent("content.created"))).ok).toBe(true);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ attempt: 1, ok: true, status: 200, event: "content.created", customHeaderNames: ["X-Token"], redelivery: false });
    expect(records[0].body).toBe(receiver.requests[1]!.raw.toString());
    expect(JSON.stringify(records)).not.toContain("value-not-logged");
    expect(JSON.stringify(records)).not.toContain(SECRET);
    await d.close();
  });

  it("a throwing or rejecting recorder is logged and the delivery still succeeds", async () => {
    receiver = await startReceiver();
    const logger = captureLogger();
    for (const onAttempt of [() => { throw new Error("disk full"); }, () => Promise.reject(new Error("db gone"))]) {
      const d = createDispatcher({ source: { targetsFor: async () => [] }, allowPrivateTargets: true, ca: CA, logger, onAttempt });
      expect((await d.deliverNow(target(receiver.url(), { logDeliveries: true }), contentEvent("content.created"))).ok).toBe(true);
      await d.close();
    }
    expect(logger.text()).toContain("webhook delivery not recorded");
    expect(logger.text()).toContain("disk full");
    expect(logger.text()).toContain("db gone");
  });

  it("close() waits for records still being written", async () => {
    receiver = await startReceiver();
    let written = false;
    const onAttempt = () => new Promise<void>((resolve) => setTimeout(() => ((written = true), resolve()), 300));
    const d = createDispatcher({ source: { targetsFor: async () => [] }, allowPrivateTargets: true, ca: CA, onAttempt });
    expect((await d.deliverNow(target(receiver.url(), { logDeliveries: true }), contentEvent("content.created"))).ok).toBe(true);
    expect(written).toBe(false);
    await d.close();
    expect(written).toBe(true);
  });
});
