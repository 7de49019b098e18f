// Tables become cards on a phone (style.css). A card shows each value with its column's name, so
// every body cell gets data-label from its column's <th>. Done here, once, for every table the
// shell renders (screens need no markup of their own), and again whenever rows or headings change.

/** A heading's text without the sort arrow. */
const headingText = (th: HTMLTableCellElement) => (th.textContent ?? "").replace(/[▲▼]/g, "").trim();

function labelTable(table: HTMLTableElement): void {
  const head = table.tHead?.rows[0];
  if (!head) return;
  const names: string[] = [];
  for (const th of Array.from(head.cells)) for (let i = 0; i < th.colSpan; i++) names.push(headingText(th));
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        // A row's own heading (scope=row) is the card's title; a cell spanning columns has no one name.
        if (cell.tagName === "TD") {
          const name = cell.colSpan > 1 ? "" : (names[column] ?? "");
          if (cell.dataset.label !== name) cell.dataset.label = name;
        }
        column += cell.colSpan;
      }
    }
  }
}

/** Labels the tables under `root` now and on every change; returns the function that stops it. */
export function labelTables(root: HTMLElement): () => void {
  let queued = false;
  const run = () => {
    queued = false;
    root.querySelectorAll("table").forEach(labelTable);
  };
  // Only child lists and text are watched, so setting data-label does not wake the observer.
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(run);
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  run();
  return () => observer.disconnect();
}
