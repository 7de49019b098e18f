// The lists the relation and media pickers choose from: entries of a collection (searched by
// their label field with the query language's `contains`, resolved with `filter[id][in]`) and
// the media library (searched by filename, resolved one id at a time).
import { FetchError } from "ofetch";
import { api } from "../api";
import type { Collection, Entry, Media } from "../types";
import { bytes } from "../ui/format";
import type { PickItem, PickSource } from "../ui/pick";
import { entryLabel } from "./display";

/** The query language's `in` takes at most 100 values. */
const IN_MAX = 100;

export function entrySource(collection: Collection): PickSource {
  const labelField = collection.fields.find((f) => f.type === "string");
  const item = (e: Entry): PickItem => ({ id: e.id, label: entryLabel(collection, e), detail: `${e._status} · created ${e._created_at.slice(0, 10)}` });
  return {
    noun: "entry",
    listing: `Entries of ${collection.name}, drafts included, newest first`,
    searchLabel: labelField ? `Search by ${labelField.name}` : undefined,
    pageSize: 20,
    async page(search, offset, limit) {
      const query: Record<string, string | number> = { limit, offset };
      if (search && labelField) query[`filter[${labelField.name}][contains]`] = search;
      const page = await api.entries(collection.name, query);
      return { items: page.data.map(item), total: page.meta.total };
    },
    async resolve(ids) {
      const out: PickItem[] = [];
      for (let i = 0; i < ids.length; i += IN_MAX) {
        const part = ids.slice(i, i + IN_MAX);
        const page = await api.entries(collection.name, { "filter[id][in]": part.join(","), limit: part.length });
        out.push(...page.data.map(item));
      }
      return out;
    },
  };
}

const mediaItem = (m: Media): PickItem => ({
  id: m.id,
  label: m.filename,
  detail: `${m.content_type} · ${bytes(m.size)}`,
  thumb: m.content_type.startsWith("image/") ? `/api/v1/media/${m.id}` : undefined,
});

export const mediaSource: PickSource = {
  noun: "media",
  listing: "Files of the media library, newest first",
  searchLabel: "Search by filename",
  pageSize: 24,
  thumbs: true,
  async page(search, offset, limit) {
    const page = await api.media(search ? { limit, offset, search } : { limit, offset });
    return { items: page.data.map(mediaItem), total: page.meta.total };
  },
  async resolve(ids) {
    const found = await Promise.all(
      ids.map((id) =>
        api.mediaItem(id).then(mediaItem, (e: unknown) => {
          // Only "not found" means the asset is gone; any other failure is shown as one.
          if (e instanceof FetchError && e.status === 404) return undefined;
          throw e;
        }),
      ),
    );
    return found.filter((m): m is PickItem => m !== undefined);
  },
};
