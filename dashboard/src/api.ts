// The one API client: every call goes to this origin's /api/dashboard/* with the in-memory access
// token. List calls read `.data`. A 401 triggers one refresh, then sign-out.
import { FetchError, ofetch, type FetchOptions } from "ofetch";
import type * as T from "./types";

/** Why a refresh was refused (the 401's `reason`); "missing": the browser holds no refresh cookie. */
export type RefreshRefusal = "expired" | "revoked" | "reused" | "member_removed" | "missing";

/** Asks login, refresh and logout for the cookie form: the refresh token never reaches this code. */
const COOKIE_SESSION = { "x-dashboard-session": "cookie" };

let accessToken: string | undefined;
let onUnauthorized: (() => Promise<boolean>) | undefined;

export function setAccessToken(token: string | undefined): void {
  accessToken = token;
}
/** Called on a 401; resolves true when a refresh got a new token (the call is retried once). */
export function setUnauthorizedHandler(fn: () => Promise<boolean>): void {
  onUnauthorized = fn;
}

const raw = ofetch.create({
  baseURL: "/api/dashboard",
  retry: 0,
  onRequest({ options }) {
    if (accessToken) options.headers.set("authorization", `Bearer ${accessToken}`);
  },
});

async function call<R>(path: string, options: FetchOptions<"json"> = {}): Promise<R> {
  try {
    return (await raw<R>(path, options as FetchOptions<"json">)) as R;
  } catch (error) {
    if (error instanceof FetchError && error.status === 401 && onUnauthorized && accessToken && (await onUnauthorized())) {
      return (await raw<R>(path, options as FetchOptions<"json">)) as R;
    }
    throw error;
  }
}

/** The message of a refused call: the API's `{error}` or a plain network message. */
export function errorMessage(error: unknown): string {
  if (error instanceof FetchError) {
    const body = error.data as { error?: string; retry_after?: number } | undefined;
    if (error.status === 429) return `Too many attempts. Try again in ${body?.retry_after ?? "a few"} seconds.`;
    if (body?.error) return body.error;
    if (!error.status) return "The service cannot be reached. Check your connection and try again.";
    return `Request failed (${error.status})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The field a 400 names (`{error, field}`), to show the message next to it. */
export function errorField(error: unknown): string | undefined {
  return error instanceof FetchError ? (error.data as { field?: string } | undefined)?.field : undefined;
}

/** How many stored values a refused removal would drop (409 `{values}`), if that is why it was refused. */
export function valuesAtStake(error: unknown): number | undefined {
  if (!(error instanceof FetchError) || error.status !== 409) return undefined;
  const values = (error.data as { values?: unknown } | undefined)?.values;
  return typeof values === "number" ? values : undefined;
}

/** How many entries use an asset whose delete was refused (409 `{used_by}`), if that is why. */
export function usedBy(error: unknown): number | undefined {
  if (!(error instanceof FetchError) || error.status !== 409) return undefined;
  const used = (error.data as { used_by?: unknown } | undefined)?.used_by;
  return typeof used === "number" ? used : undefined;
}

/** The query parameter a 400 names (`{error, parameter}`), to show the message beside its control. */
export function errorParameter(error: unknown): string | undefined {
  return error instanceof FetchError ? (error.data as { parameter?: string } | undefined)?.parameter : undefined;
}

export const statusOf = (error: unknown) => (error instanceof FetchError ? error.status : undefined);

const list = async <R>(path: string, query?: Record<string, string | number>) => (await call<{ data: R[] }>(path, { query })).data;
const enc = encodeURIComponent;

export const api = {
  login: (email: string, password: string) => raw<T.TokenPair>("/login", { method: "POST", headers: COOKIE_SESSION, body: { email, password } }),
  refresh: () => raw<T.TokenPair>("/refresh", { method: "POST", headers: COOKIE_SESSION, body: {} }),
  logout: () => call<void>("/logout", { method: "POST", headers: COOKIE_SESSION, body: {} }),
  me: () => call<T.Me>("/me"),
  overview: () => call<T.Overview>("/overview"),

  collections: () => list<T.Collection>("/collections"),
  collection: (name: string) => call<T.Collection>(`/collections/${enc(name)}`),
  createCollection: (body: T.CollectionInput) => call<T.Collection>("/collections", { method: "POST", body }),
  updateCollection: (name: string, body: T.CollectionInput) => call<T.Collection>(`/collections/${enc(name)}`, { method: "PUT", body }),
  /** One field added, renamed or removed; `confirmDrop` lets a removal drop stored values (else 409 with `values`). */
  changeCollectionField: (name: string, body: T.FieldChange, confirmDrop = false) =>
    call<T.FieldChangeResult>(`/collections/${enc(name)}`, { method: "PATCH", body, query: confirmDrop ? { confirm: "drop" } : undefined }),
  deleteCollection: (name: string) => call<T.Collection>(`/collections/${enc(name)}`, { method: "DELETE" }),

  /** Array values repeat the parameter (two filters on the same field and operator). */
  entries: (name: string, query: Record<string, string | number | string[]>) => call<T.Page<T.Entry>>(`/collections/${enc(name)}/entries`, { query }),
  entry: (name: string, id: string) => call<T.Entry>(`/collections/${enc(name)}/entries/${enc(id)}`),
  createEntry: (name: string, body: Record<string, unknown>) => call<T.Entry>(`/collections/${enc(name)}/entries`, { method: "POST", body }),
  updateEntry: (name: string, id: string, body: Record<string, unknown>) =>
    call<T.Entry>(`/collections/${enc(name)}/entries/${enc(id)}`, { method: "PATCH", body }),
  deleteEntry: (name: string, id: string) => call<T.Entry>(`/collections/${enc(name)}/entries/${enc(id)}`, { method: "DELETE" }),

  keys: () => list<T.ApiKey>("/keys"),
  createKey: (name: string, grants: T.Grant[], narrowing: { collections?: string[] | null; published_only?: boolean } = {}) =>
    call<T.CreatedApiKey>("/keys", { method: "POST", body: { name, grants, ...narrowing } }),
  revokeKey: (id: string) => call<unknown>(`/keys/${enc(id)}`, { method: "DELETE" }),

  members: () => list<T.Member>("/members"),
  createMember: (body: T.MemberInput) => call<T.Member>("/members", { method: "POST", body }),
  updateMember: (id: string, body: T.MemberChange) => call<T.Member>(`/members/${enc(id)}`, { method: "PATCH", body }),
  removeMember: (id: string) => call<unknown>(`/members/${enc(id)}`, { method: "DELETE" }),

  webhooks: () => list<T.Webhook>("/webhooks"),
  webhook: (id: string) => call<T.Webhook>(`/webhooks/${enc(id)}`),
  createWebhook: (body: T.WebhookInput) => call<T.Webhook>("/webhooks", { method: "POST", body }),
  updateWebhook: (id: string, body: T.WebhookInput) => call<T.Webhook>(`/webhooks/${enc(id)}`, { method: "PUT", body }),
  deleteWebhook: (id: string) => call<unknown>(`/webhooks/${enc(id)}`, { method: "DELETE" }),
  webhookSettings: (id: string) => call<T.WebhookSettings>(`/webhooks/${enc(id)}/settings`),
  updateWebhookSettings: (id: string, body: T.WebhookSettingsInput) =>
    call<T.WebhookSettings>(`/webhooks/${enc(id)}/settings`, { method: "PUT", body }),
  webhookDeliveries: (id: string) => list<T.DeliveryAttempt>(`/webhooks/${enc(id)}/deliveries`),
  redeliver: (id: string, attemptId: string) =>
    call<T.Redelivery>(`/webhooks/${enc(id)}/deliveries/${enc(attemptId)}/redeliver`, { method: "POST" }),
  rotateWebhookSecret: (id: string, windowSeconds: number) =>
    call<T.RotatedSecret>(`/webhooks/${enc(id)}/rotate-secret`, { method: "POST", body: { window_seconds: windowSeconds } }),
  testWebhook: (id: string, event?: string) => call<T.TestDelivery>(`/webhooks/${enc(id)}/test`, { method: "POST", body: event ? { event } : {} }),

  media: (query: Record<string, string | number> = {}) => call<T.Page<T.Media>>("/media", { query }),
  mediaItem: (id: string) => call<T.Media>(`/media/${enc(id)}`),
  /** `force` deletes an asset that entries use (else 409 with `used_by`, see usedBy). */
  deleteMedia: (id: string, force = false) => call<unknown>(`/media/${enc(id)}`, { method: "DELETE", query: force ? { force: "true" } : undefined }),

  forms: () => list<T.Form>("/forms"),
  form: (slug: string) => call<T.Form>(`/forms/${enc(slug)}`),
  createForm: (body: T.FormInput) => call<T.Form>("/forms", { method: "POST", body }),
  updateForm: (slug: string, body: T.FormInput) => call<T.Form>(`/forms/${enc(slug)}`, { method: "PUT", body }),
  deleteForm: (slug: string) => call<unknown>(`/forms/${enc(slug)}`, { method: "DELETE" }),

  rules: () => list<T.Rule>("/rules"),
  createRule: (body: T.RuleInput) => call<T.Rule>("/rules", { method: "POST", body }),
  updateRule: (id: string, body: T.RuleInput) => call<T.Rule>(`/rules/${enc(id)}`, { method: "PUT", body }),
  deleteRule: (id: string) => call<unknown>(`/rules/${enc(id)}`, { method: "DELETE" }),

  deploys: () => list<T.Deploy>("/site/deploys"),
  rollback: (deploy_id: string) => call<T.LiveDeploy>("/site/rollback", { method: "POST", body: { deploy_id } }),

  identity: () => call<T.IdentitySettings>("/identity"),
  updateIdentity: (body: Partial<T.IdentitySettings>) => call<T.IdentitySettings>("/identity", { method: "PUT", body }),

  endUsers: (query: Record<string, string | number> = {}) => call<T.Page<T.EndUser>>("/users", { query }),
  createEndUser: (body: T.EndUserInput) => call<T.EndUser>("/users", { method: "POST", body }),
  updateEndUser: (id: string, body: T.EndUserChange) => call<T.EndUser>(`/users/${enc(id)}`, { method: "PATCH", body }),
  deleteEndUser: (id: string) => call<unknown>(`/users/${enc(id)}`, { method: "DELETE" }),

  submissions: (slug: string, query: Record<string, string | number> = {}) => call<T.Page<T.Submission>>(`/forms/${enc(slug)}/submissions`, { query }),
  updateSubmission: (slug: string, id: string, body: Record<string, unknown>) =>
    call<T.Submission>(`/forms/${enc(slug)}/submissions/${enc(id)}`, { method: "PATCH", body }),
  deleteSubmission: (slug: string, id: string) => call<unknown>(`/forms/${enc(slug)}/submissions/${enc(id)}`, { method: "DELETE" }),
};

/**
 * Downloads a file of the API with the bearer token in the Authorization header (never in a URL,
 * so no link to personal data can leak or be shared) and saves it as `filename`: the bytes become
 * an object URL that an `<a download>` click saves, revoked right after.
 */
export async function download(path: string, filename: string): Promise<void> {
  const get = () => fetch(`/api/dashboard${path}`, { headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {}, cache: "no-store" });
  let res = await get();
  if (res.status === 401 && onUnauthorized && accessToken && (await onUnauthorized())) res = await get();
  if (!res.ok) throw new Error(await downloadRefusal(res));
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the bytes to the browser's download by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function downloadRefusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => undefined)) as { error?: string } | undefined;
  if (res.status === 401) return "Your session has ended: sign in again to download.";
  if (res.status === 404) return `${body?.error ?? "Not found"}: it may have been deleted meanwhile. Reload the list.`;
  return body?.error ?? `Download failed (${res.status})`;
}

/** Sends a file body with upload progress (fetch has none): XHR with the same bearer token. */
export function upload<R>(path: string, body: Blob | FormData, onProgress: (fraction: number) => void, contentType?: string): Promise<R> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/dashboard${path}`);
    if (accessToken) xhr.setRequestHeader("authorization", `Bearer ${accessToken}`);
    if (contentType) xhr.setRequestHeader("content-type", contentType);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let data: unknown;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as R);
      else reject(new Error((data as { error?: string } | undefined)?.error ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted"));
    xhr.send(body);
  });
}
