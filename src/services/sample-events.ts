/**
 * Sample events for `svc webhooks test` and POST …/webhooks/{id}/test: realistic shapes (spec 6.2),
 * clearly fake ids, no personal data.
 */
import { publishedAt, type EventName, type ServiceEvent } from "../core/events.js";

export function sampleEvent(workspaceId: string, name: EventName, now: number): ServiceEvent {
  const at = new Date(now).toISOString();
  if (name === "form.submitted") {
    const form = { id: "00000000-0000-4000-8000-000000000001", slug: "contact", name: "Contact" };
    return { workspaceId, event: name, data: { form, formId: form.id, submission: { id: "00000000-0000-4000-8000-000000000002", _submitted_at: at } } };
  }
  return {
    workspaceId,
    event: name,
    data: {
      collection: "posts",
      entry: {
        id: "00000000-0000-4000-8000-000000000003",
        title: "Sample entry (webhook test)",
        _status: name === "content.unpublished" ? "draft" : "published",
        // Unpublishing keeps _published_at (core/events.ts publishedAt), so every sample carries one.
        _published_at: publishedAt(null, "published", at),
        _created_by: "00000000-0000-4000-8000-000000000004",
        _created_at: at,
        _updated_at: at,
      },
    },
  };
}
