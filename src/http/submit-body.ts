/**
 * Reading a form submission as browsers send it (spec 4.1): JSON, urlencoded, or multipart with
 * files. Multipart is read by form-data.ts (counted against the upload limit, then the platform's
 * FormData); no hand-written parser. Values land in a prototype-less record (core/records.ts),
 * so a field named `__proto__` or `constructor` is just a name.
 */
import type { H3Event } from "h3";
import { badRequest, unsupportedMediaType } from "../core/errors.js";
import { dataRecord } from "../core/records.js";
import type { ServiceContext } from "../services/context.js";
import type { SubmitInput } from "../services/forms.js";
import type { Upload } from "../services/submission-files.js";
import { readBytes, readJsonObject } from "./body.js";
import { readFormData } from "./form-data.js";

const ACCEPTED = "application/json, application/x-www-form-urlencoded or multipart/form-data";

/** The values and files of a submit request; 415 for another content type, 400/413 as body.ts. */
export async function readSubmitBody(event: H3Event, service: ServiceContext): Promise<SubmitInput> {
  const type = (event.req.headers.get("content-type") ?? "").toLowerCase();
  if (/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    const body = await readJsonObject(event, service.options.bodyLimit);
    return { values: dataRecord(body), uploads: [] };
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const bytes = await readBytes(event, service.options.bodyLimit);
    const values = dataRecord();
    // Last value wins: the hidden-input-before-checkbox idiom sends a name twice.
    for (const [k, v] of new URLSearchParams(decodeUtf8(bytes))) values[k] = v;
    return { values, uploads: [] };
  }
  if (type.startsWith("multipart/form-data")) return readMultipart(event, service);
  throw unsupportedMediaType(`Send the submission as ${ACCEPTED}`);
}

async function readMultipart(event: H3Event, service: ServiceContext): Promise<SubmitInput> {
  const form = await readFormData(event, service.options.uploadLimit);
  const values = dataRecord();
  const uploads: Upload[] = [];
  const parts: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => parts.push([name, value]));
  for (const [name, value] of parts) {
    if (typeof value === "string") {
      values[name] = value;
      continue;
    }
    // A file input left empty is sent as a part with no filename and no bytes: no file.
    if (value.size === 0 && value.name === "") continue;
    uploads.push({ field: name, filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return { values, uploads };
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("Request body is not valid UTF-8");
  }
}
