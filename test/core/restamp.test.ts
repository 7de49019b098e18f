/**
 * restampDeliveryBody: a redelivery sends the logged body with only its send timestamp replaced,
 * in whichever format it was built (spec 6.1, 6.3), key order kept.
 */
import { describe, expect, it } from "vitest";
import { buildDeliveryBody, restampDeliveryBody, type ServiceEvent } from "../../src/core/events.js";

const event: ServiceEvent = {
  workspaceId: "ws",
  event: "content.published",
  data: {
    collection: "posts",
    entry: { id: "e1", _status: "published", _published_at: null, _created_by: "k", _created_at: "2025-01-01T00:00:00.000Z", _updated_at: "2025-01-01T00:00:00.000Z", title: "Hi" },
  },
};
const THEN = "2024-03-03T03:03:03.333Z";
const NOW = "2025-06-01T12:34:56.789Z";

describe("restampDeliveryBody", () => {
  it.each(["service", "code_host_repository_dispatch"] as const)("replaces only the send timestamp in the %s format", (format) => {
    const sent = JSON.stringify(buildDeliveryBody(format, event, THEN));
    const again = restampDeliveryBody(format, sent, NOW);
    expect(again).toBe(JSON.stringify(buildDeliveryBody(format, event, NOW)));
    expect(again).not.toContain(THEN);
  });

  it("leaves a body without a timestamp field unchanged", () => {
    expect(restampDeliveryBody("service", '{"a":1}', NOW)).toBe('{"a":1}');
    expect(restampDeliveryBody("code_host_repository_dispatch", '{"event_type":"x"}', NOW)).toBe('{"event_type":"x"}');
  });
});
