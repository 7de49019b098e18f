/**
 * The entry shape shared by the seeded collections and the reference app, so both serve bodies
 * of the same size: five user fields (string, string, text, number, boolean) plus system fields.
 */
import { randomUUID } from "node:crypto";

export const FIELDS = [
  { name: "title", type: "string" },
  { name: "slug", type: "string" },
  { name: "summary", type: "text" },
  { name: "views", type: "number" },
  { name: "featured", type: "boolean" },
];

const SUMMARY = "A short summary of this post, long enough to look like real content in a list.";

/** User data of entry number `i`. */
export function entryData(i) {
  return { title: `Post number ${i}`, slug: `post-number-${i}`, summary: SUMMARY, views: i * 7, featured: i % 3 === 0 };
}

/** What the delivery API returns for one entry; the reference app serves 20 of these, constant. */
export function referenceItems(n = 20) {
  const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    ...entryData(i),
    _status: "published",
    _published_at: at,
    _created_by: randomUUID(),
    _created_at: at,
    _updated_at: at,
  }));
}
