// Bulk actions on entries: one API call per entry (each fires its own event, spec 3), a few at a
// time so a large selection neither floods the service nor waits on one call at a time.
import { api, errorMessage } from "../api";
import type { Entry } from "../types";

export type BulkAction = "publish" | "unpublish" | "delete";
export const BULK_CONCURRENCY = 4;

export const BULK_VERBS: Record<BulkAction, { label: string; doing: string; done: string }> = {
  publish: { label: "Publish", doing: "Publishing", done: "Published" },
  unpublish: { label: "Unpublish", doing: "Unpublishing", done: "Unpublished" },
  delete: { label: "Delete", doing: "Deleting", done: "Deleted" },
};

export interface BulkFailure {
  entry: Entry;
  message: string;
}

export interface BulkResult {
  done: number;
  /** Entries already in the asked state: left alone, so no event fires for a change nobody made. */
  skipped: number;
  failures: BulkFailure[];
}

/** Whether `action` would change `entry` (publishing a published entry changes nothing). */
export function changes(action: BulkAction, entry: Entry): boolean {
  return action === "delete" || entry._status !== (action === "publish" ? "published" : "draft");
}

/**
 * Runs `action` on each entry, at most BULK_CONCURRENCY at once, reporting progress after each;
 * a refusal is collected with the API's message and the rest go on.
 */
export async function runBulk(collection: string, action: BulkAction, entries: Entry[], progress: (finished: number) => void): Promise<BulkResult> {
  const todo = entries.filter((e) => changes(action, e));
  const result: BulkResult = { done: 0, skipped: entries.length - todo.length, failures: [] };
  let next = 0;
  let finished = 0;
  const one = (e: Entry) =>
    action === "delete" ? api.deleteEntry(collection, e.id) : api.updateEntry(collection, e.id, { _status: action === "publish" ? "published" : "draft" });
  const worker = async () => {
    while (next < todo.length) {
      const entry = todo[next++]!;
      try {
        await one(entry);
        result.done++;
      } catch (e) {
        result.failures.push({ entry, message: errorMessage(e) });
      }
      progress(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, todo.length) }, worker));
  return result;
}
