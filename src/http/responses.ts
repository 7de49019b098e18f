/**
 * The success answers of the management API as zod schemas, for the OpenAPI document only (no
 * handler parses its own answer). Each carries a component name (`meta({ id })`), so the document
 * lists it once under components/schemas and clients (the dashboard's generated types among them)
 * refer to it by that name. test/http/response-schemas.test.ts holds each to what the routes
 * really answer: strict objects, so a key the server adds and the schema lacks fails there.
 */
import { z } from "zod";
import { ACCESS_MODES, collectionFieldSchema, fieldChangeSchema } from "../core/collections.js";
import { entrySystemFieldsSchema } from "../core/entry-schema.js";
import { ENTRY_STATUSES } from "../core/events.js";
import { formFieldSchema } from "../core/forms.js";
import { ALL_GRANTS, type Grant } from "../core/grants.js";
import { roleSchema } from "../core/roles.js";
import { webhookRecordSchema, webhookSettingsViewSchema } from "../core/webhook-policy.js";
import { identitySettingsSchema } from "../core/workspace-settings.js";

const timestamp = z.string().meta({ format: "date-time" });

export const grantSchema = z.enum(ALL_GRANTS as [Grant, ...Grant[]]).meta({ id: "Grant", description: "<resource>:<action> (docs/access.md)" });
const grants = z.array(grantSchema);

export const tokenPairSchema = z
  .strictObject({
    access_token: z.string(),
    refresh_token: z
      .string()
      .optional()
      .meta({ description: "Absent only in the dashboard's cookie form (X-Dashboard-Session: cookie), where it is set as an HttpOnly cookie instead" }),
    expires_in: z.int().meta({ description: "Seconds until the access token expires" }),
    role: roleSchema,
  })
  .meta({ id: "TokenPair" });

export const meSchema = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    role: roleSchema,
    grants: grants.meta({ description: "The grants as stored on the account" }),
    effective_grants: grants.meta({
      description: "What the API lets this session do: every grant for an owner, else the stored grants plus their implications (spec 5.4.2)",
    }),
    workspace: z.strictObject({
      slug: z.string(),
      name: z.string(),
      identity: z.boolean(),
      hosts: z.array(z.string()).meta({ description: "The site hosts, sorted: where the site and the public form endpoints answer (the dashboard host is not among them)" }),
    }),
    access_token_ttl_seconds: z.int().meta({
      description: "How long a dashboard access token lives: a role or grant change reaches a signed-in person within this, at their next token refresh (spec 3)",
    }),
  })
  .meta({ id: "Me" });

export const collectionFieldOut = collectionFieldSchema.meta({ id: "CollectionField" });
export const fieldChangeBody = fieldChangeSchema.meta({ id: "FieldChange" });
export const collectionSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    fields: z.array(collectionFieldOut),
    access: z.enum(ACCESS_MODES),
    rule: z.string().nullable().meta({ description: "The rule id of a gated collection" }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Collection" });
export const fieldChangeResultSchema = z.strictObject({ data: collectionSchema, meta: z.strictObject({ values: z.int().min(0) }) }).meta({ id: "FieldChangeResult" });

export const entrySchema = entrySystemFieldsSchema
  .catchall(z.unknown())
  .meta({ id: "Entry", description: "An entry of any collection: the system fields and the collection's own (typed per collection in Entry_<collection>)" });

const keyShape = {
  id: z.string(),
  name: z.string(),
  grants,
  collections: z
    .array(z.string())
    .nullable()
    .meta({ description: "The collections its collections:* and entries:* grants apply to; null: every collection" }),
  published_only: z.boolean().meta({ description: "Reads only published entries, on every surface" }),
  last_used_at: timestamp.nullable(),
  created_at: timestamp,
};
export const apiKeySchema = z.strictObject(keyShape).meta({ id: "ApiKey" });
export const createdApiKeySchema = z.strictObject({ ...keyShape, value: z.string().meta({ description: "The key itself, shown this once" }) }).meta({ id: "CreatedApiKey" });
export const revokedKeySchema = z.strictObject({ id: z.string(), revoked: z.literal(true) }).meta({ id: "RevokedApiKey" });

export const memberSchema = z
  .strictObject({ id: z.string(), email: z.string(), role: roleSchema, grants, created_at: timestamp, updated_at: timestamp })
  .meta({ id: "Member" });
export const removedMemberSchema = z.strictObject({ id: z.string(), deleted: z.literal(true) }).meta({ id: "RemovedMember" });

export const webhookSchema = webhookRecordSchema.meta({ id: "Webhook" });
export const webhookSettingsOut = webhookSettingsViewSchema.meta({ id: "WebhookSettings" });
export const rotatedSecretSchema = z
  .strictObject({ secret: z.string(), previous_secret_until: timestamp.nullable().meta({ description: "Until when the old secret still signs webhook-signature" }) })
  .meta({ id: "RotatedSecret" });
export const testDeliverySchema = z
  .strictObject({ status: z.int().nullable(), ok: z.boolean(), duration_ms: z.number(), signature: z.string().optional(), error: z.string().optional() })
  .meta({ id: "TestDelivery" });
export const deliveryAttemptSchema = z
  .strictObject({
    id: z.string(),
    delivery_id: z.string(),
    event: z.string(),
    format: z.string(),
    attempt: z.int(),
    redelivery: z.boolean(),
    ok: z.boolean(),
    response_status: z.int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number(),
    request_headers: z.record(z.string(), z.string()).meta({ description: "As sent, custom header values left out" }),
    custom_header_names: z.array(z.string()),
    body: z.string(),
    sent_at: timestamp,
  })
  .meta({ id: "DeliveryAttempt" });
export const redeliverySchema = z.strictObject({ delivery_id: z.string(), redelivery_of: z.string() }).meta({ id: "Redelivery" });

const mediaMetaShape = {
  id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size: z.int(),
  created_at: timestamp,
  width: z.int().optional().meta({ description: "Images whose size is known" }),
  height: z.int().optional(),
};
export const mediaSchema = z.strictObject({ ...mediaMetaShape, sha256: z.string(), url: z.string() }).meta({ id: "Media" });
export const mediaMetaSchema = z.strictObject(mediaMetaShape).meta({ id: "MediaMeta" });

export const formFieldOut = formFieldSchema.meta({ id: "FormField" });
export const formSchema = z
  .strictObject({ id: z.string(), slug: z.string(), name: z.string(), fields: z.array(formFieldOut), honeypot: z.string(), created_at: timestamp, updated_at: timestamp })
  .meta({ id: "Form" });
export const submissionSchema = z
  .strictObject({
    id: z.string(),
    form_id: z.string(),
    data: z.record(z.string(), z.unknown()),
    files: z.array(z.strictObject({ id: z.string(), field: z.string(), filename: z.string(), content_type: z.string(), size: z.int() })),
    _submitted_at: timestamp,
    _updated_at: timestamp,
  })
  .meta({ id: "Submission" });

export const ruleSchemaOut = z
  .strictObject({ id: z.string(), name: z.string(), condition: z.unknown().meta({ description: "The condition (docs/identity.md)" }), created_at: timestamp, updated_at: timestamp })
  .meta({ id: "Rule" });

const deployShape = { id: z.string(), file_count: z.int(), size: z.int(), created_at: timestamp, live: z.boolean() };
export const deploySchema = z.strictObject(deployShape).meta({ id: "Deploy" });
export const liveDeploySchema = z.strictObject({ ...deployShape, previous_deploy_id: z.string().nullable() }).meta({ id: "LiveDeploy" });

export const endUserSchema = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    email_verified: z.boolean(),
    attributes: z.record(z.string(), z.unknown()),
    active: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "EndUser" });

export const identitySettingsOut = identitySettingsSchema.required().meta({ id: "IdentitySettings" });

export const overviewSchema = z
  .strictObject({
    collections: z.array(z.strictObject({ name: z.string(), published: z.int().min(0), draft: z.int().min(0) })).meta({ description: "Every collection, by name" }),
    recent: z
      .array(
        z.strictObject({
          collection: z.string(),
          id: z.string(),
          label: z.string().nullable().meta({ description: "The entry's first string field, shortened; null when it has none" }),
          _status: z.enum(ENTRY_STATUSES),
          _updated_at: timestamp,
        }),
      )
      .meta({ description: "The entries updated last across the collections, newest first" }),
  })
  .meta({ id: "Overview" });
