/**
 * The workspace's end users as the dashboard manages them (users:*, spec 2.2), shared by HTTP and
 * the CLI: list, get, create, change (deactivating or a new password ends their sessions at once)
 * and delete. Bodies are validated here, each error naming its field. users:write does all of it,
 * gated collections or not (spec 2.2); docs/access.md says what that lets a holder read.
 * Members and owners are services/members.ts; self sign-up and sign-in are services/accounts.ts.
 *
 * @example
 * const user = await createEndUser(ctx, ws.id, { email: "ada@example.com", password: "…" });
 */
import { fieldsOf, parseWithSchema } from "../core/body-schema.js";
import { endUserBodySchema } from "../core/end-users.js";
import { badRequest, notFound } from "../core/errors.js";
import { endUserEmailTaken, type EndUser, type EndUserChange } from "../storage/end-users.js";
import type { ServiceContext } from "./context.js";

export type { EndUser, EndUserChange };

/** The fields an end-user body may carry. */
export const END_USER_FIELDS = fieldsOf(endUserBodySchema);

const unknownUser = () => notFound("Unknown end user");

/** Validates a create or change body; each error names its field. */
export function parseEndUserChange(body: Record<string, unknown>): EndUserChange {
  for (const key of Object.keys(body)) {
    if (!END_USER_FIELDS.includes(key)) throw badRequest(`Unknown field ${JSON.stringify(key)}; end users take ${END_USER_FIELDS.join(", ")}`, { field: key });
  }
  const { email_verified, ...rest } = parseWithSchema(endUserBodySchema, body, { named: true });
  const change: EndUserChange = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (email_verified !== undefined) change.emailVerified = email_verified;
  return change;
}

/** One page of end users, oldest first, with the total. */
export function listEndUsers(ctx: ServiceContext, workspaceId: string, page: { limit: number; offset: number }): Promise<{ rows: EndUser[]; total: number }> {
  return ctx.db.endUsers.list(workspaceId, page);
}

/** One end user, or 404 `Unknown end user`. */
export async function getEndUser(ctx: ServiceContext, workspaceId: string, id: string): Promise<EndUser> {
  const user = await ctx.db.endUsers.get(workspaceId, id);
  if (!user) throw unknownUser();
  return user;
}

/**
 * Creates an end user from `{email, password, attributes?, active?, email_verified?}` (active and
 * unverified unless said otherwise); 400 naming the field, 409 when the email is taken.
 */
export async function createEndUser(ctx: ServiceContext, workspaceId: string, body: Record<string, unknown>): Promise<EndUser> {
  const change = parseEndUserChange(body);
  if (change.email === undefined) throw badRequest("email is required", { field: "email" });
  if (change.password === undefined) throw badRequest("password is required", { field: "password" });
  const user = await ctx.db.endUsers.create(workspaceId, {
    email: change.email,
    password: change.password,
    attributes: change.attributes ?? {},
    active: change.active ?? true,
    emailVerified: change.emailVerified ?? false,
  });
  if (!user) throw endUserEmailTaken();
  return user;
}

/**
 * Changes an end user (`{email?, password?, attributes?, active?, email_verified?}`); a new email
 * is unverified unless email_verified: true; deactivation or a new password ends their sessions.
 * 404 for an unknown id, 409 when the new email is taken.
 */
export async function updateEndUser(ctx: ServiceContext, workspaceId: string, id: string, body: Record<string, unknown>): Promise<EndUser> {
  const change = parseEndUserChange(body);
  const user = await ctx.db.endUsers.update(workspaceId, id, change);
  if (!user) throw unknownUser();
  return user;
}

/** Deletes an end user with their sessions and verification tokens; 404 for an unknown id. */
export async function deleteEndUser(ctx: ServiceContext, workspaceId: string, id: string): Promise<void> {
  if (!(await ctx.db.endUsers.remove(workspaceId, id))) throw unknownUser();
}
