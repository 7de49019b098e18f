/**
 * The body that creates or changes an end user (spec 2.2), as a zod schema: the rules a request
 * is validated with and the shape the OpenAPI document shows. Pure.
 */
import { z } from "zod";
import { attributesBodySchema } from "./attributes.js";
import { booleanField } from "./body-schema.js";
import { emailSchema } from "./email.js";
import { newPasswordSchema } from "./passwords.js";

/**
 * `{email, password, attributes?, active?, email_verified?}`, every field optional: a change
 * sends any of them, a create needs email and password (checked by the service, which says so).
 */
export const endUserBodySchema = z
  .strictObject({
    email: emailSchema,
    password: newPasswordSchema,
    attributes: attributesBodySchema,
    active: booleanField("active"),
    email_verified: booleanField("email_verified"),
  })
  .partial();

/** Self sign-up (spec 2.2): `{email, password}`. */
export const signupBodySchema = z.strictObject({ email: emailSchema, password: newPasswordSchema });

/** The refusal of a verification token that is not a live one, whatever its shape. */
export const INVALID_VERIFICATION_TOKEN = "Invalid or expired verification token; sign in and ask for a new one (POST /api/v1/accounts/verify/resend)";

/** Email verification: `{token}`, the mailed one-time token. */
export const verifyBodySchema = z.strictObject({
  token: z.string({ error: INVALID_VERIFICATION_TOKEN }).meta({ description: "The mailed ev_ token (24 h, single use)" }),
});
