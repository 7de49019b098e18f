/**
 * Members and owners (the dashboard users of spec 2.3 and 5.5), shared by HTTP, the CLI and bootstrap:
 * role owner or member and a member's grants; a workspace always keeps an owner (the last one can
 * be neither demoted nor removed, 409). Changes reach the person at their next token refresh
 * (spec 3); removal ends their sessions at once. End users are services/end-users.ts.
 *
 * @example
 * await createMember(ctx, ws.id, { email: "ada@example.com", password: "…", role: "member", grants: ["entries:read"] });
 */
import { parseWithSchema } from "../core/body-schema.js";
import { badRequest, notFound } from "../core/errors.js";
import { memberCreateSchema, memberUpdateSchema } from "../core/members.js";
import type { Member } from "../storage/members.js";
import type { ServiceContext } from "./context.js";

export type { Member };

/** Members and owners of a workspace, oldest first; never password hashes. */
export function listMembers(ctx: ServiceContext, workspaceId: string): Promise<Member[]> {
  return ctx.db.members.list(workspaceId);
}

/** One member or owner, or undefined. */
export function findMember(ctx: ServiceContext, workspaceId: string, id: string): Promise<Member | undefined> {
  return ctx.db.members.get(workspaceId, id);
}

/** One member or owner, or 404. */
export async function getMember(ctx: ServiceContext, workspaceId: string, id: string): Promise<Member> {
  const member = await findMember(ctx, workspaceId, id);
  if (!member) throw notFound("No such dashboard member");
  return member;
}

/**
 * Creates a member or owner; 400 naming the field for a bad email, password, role or grant, 409
 * when the email is taken in this workspace. `role` defaults to member.
 */
export function createMember(
  ctx: ServiceContext,
  workspaceId: string,
  input: { email: unknown; password: unknown; role?: unknown; grants?: unknown },
): Promise<Member> {
  const body = parseWithSchema(memberCreateSchema, input, { named: true });
  return ctx.db.members.create(workspaceId, { email: body.email, password: body.password, role: body.role ?? "member", grants: body.grants ?? [] });
}

/** Changes role and/or grants (400 when neither is sent); 409 when it would demote the last owner. */
export function updateMember(ctx: ServiceContext, workspaceId: string, id: string, patch: { role?: unknown; grants?: unknown }): Promise<Member> {
  const { role, grants } = parseWithSchema(memberUpdateSchema, patch, { named: true });
  if (role === undefined && grants === undefined) throw badRequest("Send role and/or grants to change");
  return ctx.db.members.update(workspaceId, id, { role, grants });
}

/** Removes a member or owner and every token of theirs; 409 for the last owner, 404 for an unknown id. */
export function removeMember(ctx: ServiceContext, workspaceId: string, id: string): Promise<{ id: string; deleted: true }> {
  return ctx.db.members.remove(workspaceId, id);
}
