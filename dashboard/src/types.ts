// Shapes of the /api/dashboard/* answers the screens use: names for the server's own types,
// generated from its OpenAPI document into api-types.ts (npm run generate:types), never copies.
import type { components, operations } from "./api-types";

type Schemas = components["schemas"];
/** The JSON body an operation takes. */
type BodyOf<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

export type Grant = Schemas["Grant"];
export type Resource = Grant extends `${infer R}:${string}` ? R : never;
// Lists of values the screens iterate: a key missing or unknown here fails the type check when
// the server's enums change.
const resources: Record<Resource, true> = { collections: true, entries: true, media: true, forms: true, submissions: true, users: true, rules: true, sites: true };
export const RESOURCES = Object.keys(resources) as Resource[];

export type TokenPair = Schemas["TokenPair"];
export type Me = Schemas["Me"];
export interface Page<R> {
  data: R[];
  meta: Schemas["PageMeta"];
}

export type Field = Schemas["CollectionField"];
export type FieldType = Field["type"];
const fieldTypes: Record<FieldType, true> = { string: true, text: true, number: true, boolean: true, datetime: true, json: true, media: true, relation: true, relations: true };
export const FIELD_TYPES = Object.keys(fieldTypes) as FieldType[];
/** PATCH /collections/{name}: exactly one field change. */
export type FieldChange = Schemas["FieldChange"];
export type FieldChangeResult = Schemas["FieldChangeResult"];
export type Collection = Schemas["Collection"];
export type CollectionAccess = Collection["access"];
/** PUT leaves out the name (it is in the path). */
export type CollectionInput = Omit<BodyOf<"post_dashboard_collections">, "name"> & { name?: string };
export type Entry = Schemas["Entry"];
export type Overview = Schemas["Overview"];

export type ApiKey = Schemas["ApiKey"];
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type Member = Schemas["Member"];
export type MemberInput = BodyOf<"post_dashboard_members">;
export type MemberChange = BodyOf<"patch_dashboard_members_by_id">;

export type Webhook = Schemas["Webhook"];
export type WebhookInput = BodyOf<"post_dashboard_webhooks"> | BodyOf<"put_dashboard_webhooks_by_id">;
export type WebhookSettings = Schemas["WebhookSettings"];
export type WebhookSettingsInput = BodyOf<"put_dashboard_webhooks_by_id_settings">;
export type RotatedSecret = Schemas["RotatedSecret"];
/** One logged attempt of the opt-in delivery log. */
export type DeliveryAttempt = Schemas["DeliveryAttempt"];
export type Redelivery = Schemas["Redelivery"];
export type TestDelivery = Schemas["TestDelivery"];

export type Media = Schemas["Media"];
export type FormField = Schemas["FormField"];
export type Form = Schemas["Form"];
/** PUT leaves out the slug (it is in the path). */
export type FormInput = Omit<BodyOf<"post_dashboard_forms">, "slug"> & { slug?: string };
export type Submission = Schemas["Submission"];
export type Rule = Schemas["Rule"];
export type RuleInput = BodyOf<"post_dashboard_rules">;
export type Deploy = Schemas["Deploy"];
export type LiveDeploy = Schemas["LiveDeploy"];
export type EndUser = Schemas["EndUser"];
export type EndUserInput = BodyOf<"post_dashboard_users">;
export type EndUserChange = BodyOf<"patch_dashboard_users_by_id">;
export type IdentitySettings = Schemas["IdentitySettings"];
