/**
 * The bodies that create and change members and owners (spec 2.3, 5.5), as zod schemas: the
 * rules a request is validated with and the shape the OpenAPI document shows. Pure.
 */
import { z } from "zod";
import { emailSchema } from "./email.js";
import { grantsSchema } from "./grants.js";
import { newPasswordSchema } from "./passwords.js";
import { roleSchema } from "./roles.js";

/** `{email, password, role?, grants?}`; role defaults to member. */
export const memberCreateSchema = z.strictObject({
  email: emailSchema,
  password: newPasswordSchema,
  role: roleSchema.optional(),
  grants: grantsSchema.optional(),
});

/** `{role?, grants?}`: at least one of them (checked by the service, which says so). */
export const memberUpdateSchema = memberCreateSchema.pick({ role: true, grants: true });
