/**
 * Site archives for tests: a real tar.gz of a directory built with `tar`, and hand-made archives
 * (tar's Header API) with entries no honest packer writes.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { create as createTar, Header } from "tar";

/** The site of the brief: index, about, blog/index, 404 and a stylesheet. */
export const siteFiles = (version: string): Record<string, string> => ({
  "index.html": `<h1>home ${version}</h1>`,
  "about.html": `<h1>about ${version}</h1>`,
  "blog/index.html": `<h1>blog ${version}</h1>`,
  "404.html": `<h1>not found ${version}</h1>`,
  "style.css": `body { color: ${version === "v1" ? "red" : "blue"} }`,
});

/** Writes `files` into a fresh directory; returns it and a cleanup. */
export function writeTree(files: Record<string, string | Uint8Array>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "svc-site-"));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A tar.gz of `files`, packed by the `tar` package from a real directory. */
export async function packSite(files: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const { dir, cleanup } = writeTree(files);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of createTar({ gzip: true, cwd: dir, portable: true }, Object.keys(files).map((p) => p.split("/")[0]!).filter((v, i, a) => a.indexOf(v) === i)) as unknown as AsyncIterable<Buffer>) {
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } finally {
    cleanup();
  }
}

export interface RawEntry {
  path: string;
  type?: "File" | "Directory" | "SymbolicLink" | "Link" | "CharacterDevice" | "FIFO";
  body?: string;
  linkpath?: string;
}

/** A tar built block by block with tar's Header, gzip-compressed unless `gzip` is false. */
export function rawTar(entries: RawEntry[], gzip = true): Uint8Array {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? "");
    const type = e.type ?? "File";
    const header = new Header({ path: e.path, mode: 0o644, size: type === "File" ? body.length : 0, type, linkpath: e.linkpath, mtime: new Date(0), uid: 0, gid: 0 });
    header.encode();
    blocks.push(header.block!);
    if (type === "File") blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  return gzip ? gzipSync(tar) : tar;
}
