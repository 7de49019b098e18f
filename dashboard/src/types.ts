// Shapes of the /api/dashboard/* answers the screens use.
export type Grant = `${Resource}:${"read" | "write"}`;
export type Resource = "collections" | "entries" | "media" | "forms" | "submissions" | "users" | "rules" | "sites";
export const RESOURCES: Resource[] = ["collections", "entries", "media", "forms", "submissions", "users", "rules", "sites"];

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  role: "owner" | "member";
}
export interface Me {
  id: string;
  email: string;
  role: "owner" | "member";
  grants: Grant[];
  workspace: { slug: string; name: string; identity: boolean };
}
export interface Page<R> {
  data: R[];
  meta: { total: number; limit: number; offset: number };
}

export type FieldType = "string" | "text" | "number" | "boolean" | "datetime" | "json" | "media" | "relation" | "relations";
export const FIELD_TYPES: FieldType[] = ["string", "text", "number", "boolean", "datetime", "json", "media", "relation", "relations"];
export interface Field {
  name: string;
  type: FieldType;
  required?: boolean;
  collection?: string;
}
/** PATCH /collections/{name}: exactly one field change. */
export type FieldChange = { add: Field } | { rename: { from: string; to: string } } | { remove: string };
export type CollectionAccess = "public" | "private" | "gated";
export interface CollectionInput {
  name?: string;
  fields: Field[];
  access: CollectionAccess;
  rule?: string | null;
}
export interface Collection extends CollectionInput {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}
export interface Entry {
  id: string;
  _status: "draft" | "published";
  _created_at: string;
  _updated_at: string;
  _published_at: string | null;
  [field: string]: unknown;
}
export interface ApiKey {
  id: string;
  name: string;
  grants: Grant[];
  created_at: string;
  last_used_at: string | null;
}
export interface Member {
  id: string;
  email: string;
  role: "owner" | "member";
  grants: Grant[];
  created_at: string;
}
export interface WebhookInput {
  url?: string;
  events?: string[];
  format?: string;
  headers?: Record<string, string | null>;
  active?: boolean;
  log_deliveries?: boolean;
  standard_webhooks?: boolean;
}
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  format: string;
  header_names: string[];
  /** Opt-in flags: present (true) only when on. */
  log_deliveries?: true;
  standard_webhooks?: true;
  created_at: string;
}
export interface WebhookSettings {
  active: boolean;
  debounce_ms: number;
  debounce_scope: "entry" | "webhook";
  secret: string;
  previous_secret_until?: string;
}
export interface RotatedSecret {
  secret: string;
  previous_secret_until: string | null;
}
/** One logged attempt of the opt-in delivery log. */
export interface DeliveryAttempt {
  id: string;
  delivery_id: string;
  event: string;
  format: string;
  attempt: number;
  redelivery: boolean;
  ok: boolean;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  request_headers: Record<string, string>;
  custom_header_names: string[];
  body: string;
  sent_at: string;
}
export interface TestDelivery {
  status: number | null;
  ok: boolean;
  duration_ms: number;
  signature?: string;
  error?: string;
}
export interface Media {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  width?: number | null;
  height?: number | null;
  created_at: string;
}
export interface FormField {
  name: string;
  type: string;
  required?: boolean;
}
export interface FormInput {
  slug?: string;
  name: string;
  fields: FormField[];
  honeypot?: string | null;
}
export interface Form extends FormInput {
  id: string;
  slug: string;
}
export interface Submission {
  id: string;
  data: Record<string, unknown>;
  files?: unknown[];
  _submitted_at: string;
}
export interface Rule {
  id: string;
  name: string;
  condition: unknown;
  created_at: string;
}
export interface RuleInput {
  name: string;
  condition: unknown;
}
export interface Deploy {
  id: string;
  created_at: string;
  live: boolean;
  file_count: number;
  size: number;
}
export interface EndUser {
  id: string;
  email: string;
  attributes: Record<string, unknown>;
  active: boolean;
  created_at: string;
}
