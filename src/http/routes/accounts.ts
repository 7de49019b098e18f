/**
 * Identity end-user accounts (spec 2.4, 4.4, 5.6): sign-up, sign-in to a 30-day account session,
 * sign-out, and "who am I". Only on workspaces with Identity enabled; elsewhere every route
 * answers 404 with a message saying Identity is off.
 */
import { unauthorized } from "../../core/errors.js";
import { verifyAgainstDummy } from "../../core/passwords.js";
import { repo } from "../../service-context.js";
import { createAccountRepo } from "../../storage/accounts.js";
import { access } from "../access.js";
import { assertKnownFields, readJsonObject } from "../body.js";
import { bearerToken, identityDisabled } from "../middleware/auth.js";
import { beginSignIn, limitLogin } from "../middleware/login-limit.js";
import type { TenantWorkspace } from "../middleware/tenant.js";
import { defineRoutes } from "../route.js";
import { loginFailed, readCredentials, sentApiKey } from "./dashboard-auth.js";

const requireIdentity = (workspace: TenantWorkspace) => {
  if (!workspace.identity) throw identityDisabled();
};

export const accountRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/v1/accounts/signup",
    access: access.public,
    summary: "Create an end-user account {email, password} (Identity only)",
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const body = await readJsonObject(event, service.options.bodyLimit);
      assertKnownFields(body, ["email", "password"], "POST /api/v1/accounts/signup");
      // Counted like sign-ins: signups probe which emails exist (409) and cost scrypt time.
      await limitLogin(event, service, "account", workspace.id, body.email);
      const account = await repo(service, createAccountRepo).signup(workspace.id, { email: body.email, password: body.password });
      event.res.status = 201;
      return account;
    },
  },
  {
    method: "POST",
    path: "/api/v1/accounts/login",
    access: access.public,
    summary: "Sign in {email, password} → {token, expires_at}: an account session of 30 days",
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const { email, password } = readCredentials(await readJsonObject(event, service.options.bodyLimit));
      const attempt = await beginSignIn(event, service, "account", workspace.id, email);
      const accounts = repo(service, createAccountRepo);
      const account = sentApiKey(event)
        ? await verifyAgainstDummy(password, service.options.passwordParams).then(() => undefined)
        : await accounts.verifyLogin(workspace.id, email, password);
      if (!account) throw loginFailed();
      await attempt.succeeded();
      return accounts.issueSession(workspace.id, account.id);
    },
  },
  {
    method: "POST",
    path: "/api/v1/accounts/logout",
    access: access.account,
    summary: "End the presented account session",
    async handler(event, { service, workspace }) {
      await repo(service, createAccountRepo).logout(workspace.id, bearerToken(event)!);
      return new Response(null, { status: 204 });
    },
  },
  {
    method: "GET",
    path: "/api/v1/accounts/me",
    access: access.account,
    summary: "The signed-in end user {id, email, attributes, created_at}",
    async handler(_event, { service, workspace, principal }) {
      const account = await repo(service, createAccountRepo).get(workspace.id, principal!.id);
      if (!account) throw unauthorized();
      return account;
    },
  },
]);
