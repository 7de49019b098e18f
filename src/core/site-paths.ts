/**
 * Paths of a static site: archive entry names checked and normalised on deploy, request paths
 * decoded and mapped to candidate files on serve. Traversal is refused on both sides. Pure.
 *
 * @example
 * archiveEntryPath("./blog/index.html"); // "blog/index.html"
 * archiveEntryPath("../x"); // throws 400 naming the entry
 * requestCandidates("/about"); // ["about", "about.html", "about/index.html"]
 * requestCandidates("/blog/"); // ["blog/index.html"]
 */
import { badRequest } from "./errors.js";

/** Longest accepted path inside a deploy, in characters. */
export const MAX_SITE_PATH = 1024;
const MAX_SEGMENT = 255;
// Control characters and backslashes (a Windows separator some archivers write) are never valid.
const BAD_CHARS = /[\u0000-\u001f\u007f\\]/;

const refuse = (entry: string, why: string) =>
  badRequest(`Archive entry ${JSON.stringify(entry)} is refused: ${why}`, { entry });

/**
 * The normalised path of an archive entry (no leading `./`, no empty or `.` segments), or `""` for
 * the archive's root directory. Throws 400 naming the entry for absolute paths, `..` segments,
 * control characters, backslashes and overlong names.
 */
export function archiveEntryPath(raw: string): string {
  if (raw.startsWith("/") || /^[a-zA-Z]:/.test(raw)) throw refuse(raw, "absolute paths are not allowed");
  if (BAD_CHARS.test(raw)) throw refuse(raw, "control characters and backslashes are not allowed");
  const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw refuse(raw, "'..' segments are not allowed");
  if (segments.some((s) => s.length > MAX_SEGMENT)) throw refuse(raw, `a path segment is longer than ${MAX_SEGMENT} characters`);
  const path = segments.join("/");
  if (path.length > MAX_SITE_PATH) throw refuse(raw, `the path is longer than ${MAX_SITE_PATH} characters`);
  return path;
}

/**
 * The files that may answer a request path, in order, or undefined when the path is invalid
 * (undecodable, `..`/`.` segments after decoding, encoded separators or control characters): the
 * caller answers 400. Dot-files other than `.well-known/` are never served (an `.env` or `.git/`
 * uploaded by mistake stays private).
 */
export function requestCandidates(pathname: string): string[] | undefined {
  const rawSegments = pathname.split("/");
  const segments: string[] = [];
  for (const raw of rawSegments) {
    let s: string;
    try {
      s = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (s === "." || s === ".." || s.includes("/") || BAD_CHARS.test(s)) return undefined;
    if (s !== "") segments.push(s);
  }
  if (segments.some((s, i) => s.startsWith(".") && !(i === 0 && s === ".well-known"))) return [];
  const path = segments.join("/");
  if (path.length > MAX_SITE_PATH) return [];
  if (path === "" || pathname.endsWith("/")) return [path === "" ? "index.html" : `${path}/index.html`];
  return [path, `${path}.html`, `${path}/index.html`];
}
