/**
 * multipart/form-data for every route that takes it (media upload, form submit): the bytes are
 * counted against `limit` as they stream in (body.ts, 413 past it), then parsed by the platform's
 * FormData (undici), so there is no hand-written multipart parser.
 *
 * h3's `readFormData` does not fit: it is `event.req.formData()`, which reads with no limit, and
 * after h3's streaming limit (`assertBodySize`) it loses the Content-Type, so every multipart body
 * is refused (h3 2.0.8; CONTRIBUTING.md, "Libraries instead of hand-written code").
 */
import type { H3Event } from "h3";
import { badRequest } from "../core/errors.js";
import { readBytes } from "./body.js";

/** The parsed form; 413 past `limit`, 400 when the body is not valid multipart. */
export async function readFormData(event: H3Event, limit: number): Promise<FormData> {
  const bytes = await readBytes(event, limit);
  const headers = { "content-type": event.req.headers.get("content-type") ?? "" };
  try {
    return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers }).formData();
  } catch {
    throw badRequest("Malformed multipart/form-data body");
  }
}
