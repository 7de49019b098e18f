// What a picker (ui/Picker.vue) asks of the list it picks from: one page for a search, and the
// items behind chosen ids (an id it cannot find is a dangling reference, shown as missing).

/** One choosable item as a picker shows it: always text, with an optional thumbnail URL. */
export interface PickItem {
  id: string;
  label: string;
  detail?: string;
  thumb?: string;
}

export interface PickSource {
  /** What one item is called in messages: "entry", "media". */
  noun: string;
  /** What the dialog lists, in order: "Entries of tags, newest first". */
  listing: string;
  /** The search box's label; none when the list cannot be searched. */
  searchLabel?: string;
  /** Items per page. */
  pageSize: number;
  /** Whether items show thumbnails (laid out as a grid). */
  thumbs?: boolean;
  page(search: string, offset: number, limit: number): Promise<{ items: PickItem[]; total: number }>;
  /** The items behind `ids` that still exist, in any order. */
  resolve(ids: string[]): Promise<PickItem[]>;
}
