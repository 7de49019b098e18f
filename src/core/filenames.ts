/**
 * Uploaded filenames: sanitised once on upload (basename only, no control or bidi characters, no
 * path separators, length-capped) and rendered into a Content-Disposition header (RFC 6266). Pure.
 *
 * @example
 * sanitizeFilename("../../etc/pass\u0000wd"); // "passwd"
 * contentDisposition("inline", "résumé.pdf"); // `inline; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`
 */

/** Longest stored filename, in characters (most filesystems allow 255 bytes). */
export const MAX_FILENAME_LENGTH = 200;

// C0/C1 controls, DEL, and the bidi overrides that make "evil\u202Egnp.exe" look like a PNG.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The last path segment of `raw`, with unsafe characters removed and the length capped (the
 * extension is kept when it is short). `fallback` when nothing usable remains.
 */
export function sanitizeFilename(raw: string, fallback = "file"): string {
  let name = raw.normalize("NFC").replace(UNSAFE, "");
  name = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1).trim();
  if (name === "" || /^\.+$/.test(name)) return fallback;
  const chars = [...name];
  if (chars.length <= MAX_FILENAME_LENGTH) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? [...name.slice(dot)] : [];
  const keep = ext.length > 0 && ext.length <= 16 ? ext : [];
  return chars.slice(0, MAX_FILENAME_LENGTH - keep.length).join("").trimEnd() + keep.join("");
}

/** `inline` or `attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266 §4.3). */
export function contentDisposition(kind: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
