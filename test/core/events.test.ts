/**
 * Delivery bodies (spec 6.1–6.3) as a table: both formats, content and form events.
 */
import { describe, expect, it } from "vitest";
import { buildDeliveryBody, deliveryBodyText, eventSubjectId, lifecycleEvents, publishedAt, type ServiceEvent } from "../../src/core/events.js";

const entry = { id: "e1", title: "T", _status: "published" as const, _published_at: "p", _created_by: "u", _created_at: "c", _updated_at: "u2" };
const content: ServiceEvent = { workspaceId: "w", event: "content.published", data: { collection: "posts", entry } };
const form: ServiceEvent = {
  workspaceId: "w",
  event: "form.submitted",
  data: { form: { id: "f1", slug: "contact", name: "Contact" }, formId: "f1", submission: { id: "s1", _submitted_at: "t0" } },
};

describe("buildDeliveryBody", () => {
  it("service format: exactly {event, data, timestamp}, collection and entry inside data", () => {
    expect(buildDeliveryBody("service", content, "T1")).toEqual({ event: "content.published", data: { collection: "posts", entry }, timestamp: "T1" });
    expect(buildDeliveryBody("service", form, "T1")).toEqual({ event: "form.submitted", data: form.data, timestamp: "T1" });
  });

  it("code_host_repository_dispatch format for content events", () => {
    expect(buildDeliveryBody("code_host_repository_dispatch", content, "T1")).toEqual({
      event_type: "service.content.published",
      client_payload: { event: "content.published", collection: "posts", entryId: "e1", timestamp: "T1" },
    });
  });

  it("code_host_repository_dispatch format for form.submitted: identifiers only, no values", () => {
    expect(buildDeliveryBody("code_host_repository_dispatch", form, "T1")).toEqual({
      event_type: "service.form.submitted",
      client_payload: { event: "form.submitted", form: "contact", formId: "f1", submissionId: "s1", timestamp: "T1" },
    });
  });

  it("names the idempotency key of each event (spec 6.4.4)", () => {
    expect(eventSubjectId(content)).toBe("e1");
    expect(eventSubjectId(form)).toBe("s1");
  });
});

describe("deliveryBodyText", () => {
  // Awkward values: escapes, astral and lone-surrogate text, numbers JSON spells its own way, nesting, key order.
  const odd = { ...entry, title: 'quote " backslash \\ newline \n tab \t \u2028 😀 \ud800', n: 1e21, m: -0, small: 5e-7, list: [null, true, { z: 1, a: 2 }], nested: { "": "empty key", "ü": "ü" } };
  const events: ServiceEvent[] = [content, form, { workspaceId: "w", event: "content.updated", data: { collection: "posts", entry: odd } }];
  const stamps = ["2025-01-01T00:00:00.000Z", 'odd "stamp"'];

  it("is exactly JSON.stringify(buildDeliveryBody(...)), with and without the data JSON made beforehand", () => {
    for (const event of events) {
      for (const format of ["service", "code_host_repository_dispatch"] as const) {
        for (const timestamp of stamps) {
          const whole = JSON.stringify(buildDeliveryBody(format, event, timestamp));
          expect(deliveryBodyText(format, event, timestamp)).toBe(whole);
          expect(deliveryBodyText(format, event, timestamp, JSON.stringify(event.data))).toBe(whole);
        }
      }
    }
  });

  it("splices the data JSON it is given into a service body (made once for every webhook of the event)", () => {
    expect(deliveryBodyText("service", content, "T1", '{"given":true}')).toBe('{"event":"content.published","data":{"given":true},"timestamp":"T1"}');
    // The other format carries no data: the JSON given is not used.
    expect(deliveryBodyText("code_host_repository_dispatch", content, "T1", '{"given":true}')).toBe(JSON.stringify(buildDeliveryBody("code_host_repository_dispatch", content, "T1")));
  });
});

describe("publishedAt and lifecycleEvents (spec 2.5, 3)", () => {
  it("sets _published_at on the first publish and keeps it through unpublish and republish", () => {
    expect(publishedAt(null, "draft", "T1")).toBeNull();
    expect(publishedAt(null, "published", "T1")).toBe("T1");
    expect(publishedAt("T1", "draft", "T2")).toBe("T1");
    expect(publishedAt("T1", "published", "T3")).toBe("T1");
  });

  it("fires content.deleted for a delete in either status", () => {
    expect(lifecycleEvents("draft", null)).toEqual(["content.deleted"]);
    expect(lifecycleEvents("published", null)).toEqual(["content.deleted"]);
  });
});
