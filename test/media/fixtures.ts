/**
 * Tiny image headers and request helpers for the media suites.
 */

/** A PNG signature + IHDR chunk for `width` × `height` (enough for imageSize; not a full image). */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  return b;
}

/** A multipart/form-data body built by the platform: bytes plus its Content-Type. */
export async function multipart(fields: Record<string, string | File>): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const req = new Request("http://x/", { method: "POST", body: form });
  return { body: new Uint8Array(await req.arrayBuffer()), type: req.headers.get("content-type")! };
}

/** Every `access-control-*` header of a response (spec 1.3: media sends none). */
export const corsHeaders = (res: Response) => headerEntries(res).filter(([k]) => k.startsWith("access-control-")).map(([k]) => k);

/** A response's headers as [name, value] pairs (lib "DOM" has no Headers iterator). */
export function headerEntries(res: Response): [string, string][] {
  const out: [string, string][] = [];
  res.headers.forEach((v, k) => out.push([k, v]));
  return out;
}
