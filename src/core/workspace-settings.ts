/**
 * Bodies that change a workspace's own settings, as zod schemas: the rules a request is
 * validated with and the shape the OpenAPI document shows. Pure.
 */
import { z } from "zod";
import { booleanField } from "./body-schema.js";

/** Identity (end-user accounts) and self sign-up switches: `{enabled?, self_signup?}`, at least one. */
export const identitySettingsSchema = z.strictObject({
  enabled: booleanField("enabled").optional(),
  self_signup: booleanField("self_signup").optional(),
});

/** A site rollback: the deploy to make live, or null/absent for the previous one. */
export const siteRollbackSchema = z.strictObject({
  deploy_id: z.string({ error: "deploy_id must be a string" }).nullish().meta({ description: "The deploy to make live; default the previous one" }),
});
