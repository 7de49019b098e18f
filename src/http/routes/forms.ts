/**
 * Forms (spec 4.1, 5.3, 5.4.4–5.4.5): the two public, browser-facing routes (CORS on) and the
 * dashboard's form definitions (forms:read / forms:write). forms:read shows fields, never
 * submitted data; submissions live in routes/submissions.ts behind submissions:*.
 */
import { getRouterParam, type H3Event } from "h3";
import { badRequest, rateLimited } from "../../core/errors.js";
import { listOf } from "../../core/lists.js";
import { createForm, deleteForm, formView, getForm, listForms, submitForm, updateForm } from "../../services/forms.js";
import type { ServiceContext } from "../../services/context.js";
import { access } from "../access.js";
import { holdsGrant } from "../../core/principal.js";
import { readJsonObject } from "../body.js";
import { clientAddress } from "../middleware/login-limit.js";
import { formSchema } from "../responses.js";
import { defineRoutes } from "../route.js";
import { readSubmitBody } from "../submit-body.js";
import { formDefinitionSchema } from "../../core/forms.js";

/** Submissions accepted per client address and workspace per window (docs/forms.md). */
export const SUBMIT_LIMIT = { perAddress: 10, windowMs: 60_000 } as const;

const slug = (event: H3Event) => getRouterParam(event, "slug")!;

export const formRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/v1/forms/:slug",
    access: access.public,
    cors: true,
    summary: "A form's public definition {id, slug, name, fields, honeypot}",
    response: { description: "{id, slug, name, fields, honeypot}" },
    async handler(event, { service, workspace }) {
      const f = await getForm(service, workspace.id, slug(event));
      return { id: f.id, slug: f.slug, name: f.name, fields: f.fields, honeypot: f.honeypot };
    },
  },
  {
    method: "POST",
    path: "/api/v1/forms/:slug/submit",
    access: access.public,
    cors: true,
    summary: "Submit a form from a browser (JSON, urlencoded or multipart) → 201 {id}; never send a key",
    body: { description: "The field values: JSON, application/x-www-form-urlencoded or multipart/form-data (files)" },
    response: { status: 201, description: "{id}" },
    async handler(event, { service, workspace }) {
      refuseApiKey(event);
      await limitSubmit(event, service, workspace.id);
      const input = await readSubmitBody(event, service);
      const { id } = await submitForm(service, workspace.id, slug(event), input);
      // A honeypot hit answers exactly like this too (spec 4.1: bots learn nothing).
      event.res.status = 201;
      return { id };
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/forms",
    access: access.grant("forms:read"),
    summary: "List forms (definitions only, never submitted data) → {data, meta: {total}}",
    response: { schema: formSchema, list: "whole", description: "Form definitions" },
    handler: async (_event, { service, workspace }) => listOf((await listForms(service, workspace.id)).map(formView)),
  },
  {
    method: "POST",
    path: "/api/dashboard/forms",
    access: access.grant("forms:write"),
    summary: "Create a form {slug, name, fields, honeypot?}",
    body: { schema: formDefinitionSchema },
    response: { schema: formSchema, status: 201, description: "The form" },
    async handler(event, { service, workspace }) {
      const form = await createForm(service, workspace.id, await readJsonObject(event, service.options.bodyLimit));
      event.res.status = 201;
      return formView(form);
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/forms/:slug",
    access: access.grant("forms:read"),
    summary: "A form's definition (fields, honeypot)",
    response: { schema: formSchema, description: "The form" },
    handler: async (event, { service, workspace }) => formView(await getForm(service, workspace.id, slug(event))),
  },
  {
    method: "PUT",
    path: "/api/dashboard/forms/:slug",
    access: access.grant("forms:write"),
    summary: "Replace a form's definition; 409 when stored submissions would violate it (count only with submissions:read)",
    body: { schema: formDefinitionSchema },
    response: { schema: formSchema, description: "The form" },
    async handler(event, { service, workspace, principal }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const revealCount = holdsGrant(principal, "submissions:read");
      return formView(await updateForm(service, workspace.id, slug(event), body, { revealCount }));
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/forms/:slug",
    access: access.grant("forms:write"),
    summary: "Delete a form; one with stored submissions also needs submissions:write (they are deleted with it)",
    response: { status: 204 },
    async handler(event, { service, workspace, principal }) {
      await deleteForm(service, workspace.id, slug(event), {
        revealCount: holdsGrant(principal, "submissions:read"),
        canDeleteSubmissions: holdsGrant(principal, "submissions:write"),
      });
      return new Response(null, { status: 204 });
    },
  },
]);

/** spec 4.1, 5.3: the submit endpoint runs in browsers, so a key sent there is already exposed. */
function refuseApiKey(event: H3Event): void {
  const header = event.req.headers.get("authorization") ?? "";
  if (/^\s*bearer\s+pk_/i.test(header)) {
    throw badRequest(
      "Do not send an API key to the form submit endpoint: it is called from browsers, where any key is public. Remove the Authorization header and revoke that key if it was shipped to a browser.",
    );
  }
}

async function limitSubmit(event: H3Event, service: ServiceContext, workspaceId: string): Promise<void> {
  const address = clientAddress(event, service.options.trustProxy);
  const hit = await service.shared.hit(`submit:${workspaceId}:${address}`, SUBMIT_LIMIT.windowMs);
  if (hit.count > SUBMIT_LIMIT.perAddress) throw rateLimited(Math.max(1, Math.ceil(hit.resetMs / 1000)));
}
