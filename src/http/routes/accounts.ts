/**
 * Identity end-user accounts (spec 2.4, 4.4, 5.6): sign-up (only with self sign-up on), email
 * verification, sign-in to a 30-day account session, sign-out, and "who am I". Only on workspaces
 * with Identity enabled; elsewhere every route answers 404 with a message saying Identity is off.
 */
import type { H3Event } from "h3";
import { conflict, forbidden, rateLimited } from "../../core/errors.js";
import type { ServiceContext } from "../../services/context.js";
import { fieldsOf, parseWithSchema } from "../../core/body-schema.js";
import { signupBodySchema, verifyBodySchema } from "../../core/end-users.js";
import { verifyAgainstDummy } from "../../core/passwords.js";
import { endAccountSession, getAccount, signUp, startAccountSession, verifyAccountLogin } from "../../services/accounts.js";
import { access } from "../access.js";
import { assertKnownFields, readJsonObject } from "../body.js";
import { bearerToken, identityDisabled } from "../middleware/auth.js";
import { beginSignIn, limitLogin } from "../middleware/login-limit.js";
import type { TenantWorkspace } from "../middleware/tenant.js";
import { defineRoutes } from "../route.js";
import { requestHost } from "../middleware/tenant.js";
import { requireMailTransport } from "../../services/mail.js";
import { sendVerification, verifyEmail } from "../../services/verification.js";
import { credentialsSchema, loginFailed, readCredentials, sentApiKey } from "./dashboard-auth.js";

const requireIdentity = (workspace: TenantWorkspace) => {
  if (!workspace.identity) throw identityDisabled();
};

/** Verification mails a signed-in account may ask for per hour (each one costs a sent message). */
const RESEND_LIMIT = { perHour: 5, windowMs: 60 * 60 * 1000 };

const selfSignupOff = () =>
  forbidden(
    "Self sign-up is off on this workspace: accounts are created by its administrators (the owner can turn self sign-up on in the identity settings)",
    { self_signup: false },
  );

/** The account is committed when its mail fails: say so, and how to get the token. */
const SIGNUP_MAIL_FAILED =
  "Your account was created, but the verification e-mail could not be sent: sign in and ask for a new one (POST /api/v1/accounts/verify/resend) later";

/** The host the visitor used: verification mail names it (and a sender may build a link on it). */
const hostOf = (event: H3Event, service: ServiceContext, workspace: TenantWorkspace) => requestHost(event, service.options.trustProxy) ?? workspace.slug;

export const accountRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/v1/accounts/signup",
    access: access.public,
    summary: "Create an end-user account {email, password} (Identity with self sign-up on); mails a verification token",
    body: { schema: signupBodySchema },
    response: { status: 201, description: "The account {id, email, email_verified, attributes, created_at}" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      if (!workspace.selfSignup) throw selfSignupOff();
      // Before the account exists: an account that can never be verified helps nobody.
      requireMailTransport(service, "Sign-up");
      const body = await readJsonObject(event, service.options.bodyLimit);
      assertKnownFields(body, fieldsOf(signupBodySchema), "POST /api/v1/accounts/signup");
      // Counted like sign-ins: signups probe which emails exist (409) and cost scrypt time.
      await limitLogin(event, service, "account", workspace.id, body.email);
      const account = await signUp(service, workspace.id, { email: body.email, password: body.password });
      await sendVerification(service, workspace, hostOf(event, service, workspace), account, SIGNUP_MAIL_FAILED);
      event.res.status = 201;
      return account;
    },
  },
  {
    method: "POST",
    path: "/api/v1/accounts/login",
    access: access.public,
    summary: "Sign in {email, password} → {token, expires_at}: an account session of 30 days",
    body: { schema: credentialsSchema },
    response: { description: "{token, expires_at}: the as_ account session" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const { email, password } = readCredentials(await readJsonObject(event, service.options.bodyLimit));
      const attempt = await beginSignIn(event, service, "account", workspace.id, email);
      const account = sentApiKey(event)
        ? await verifyAgainstDummy(password, service.options.passwordParams).then(() => undefined)
        : await verifyAccountLogin(service, workspace.id, email, password);
      if (!account) throw loginFailed();
      await attempt.succeeded();
      return startAccountSession(service, workspace.id, account.id);
    },
  },
  {
    method: "POST",
    path: "/api/v1/accounts/logout",
    access: access.account,
    summary: "End the presented account session",
    response: { status: 204 },
    async handler(event, { service, workspace }) {
      await endAccountSession(service, workspace.id, bearerToken(event)!);
      return new Response(null, { status: 204 });
    },
  },
  {
    method: "GET",
    path: "/api/v1/accounts/me",
    access: access.account,
    summary: "The signed-in end user {id, email, email_verified, attributes, created_at}",
    response: { description: "{id, email, email_verified, attributes, created_at}" },
    handler: (_event, { service, workspace, principal }) => getAccount(service, workspace.id, principal!.id),
  },
  {
    method: "POST",
    path: "/api/v1/accounts/verify",
    access: access.public,
    summary: "Verify the account's email with the mailed one-time token {token} (24 h, single use)",
    body: { schema: verifyBodySchema },
    response: { description: "The verified account" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const body = await readJsonObject(event, service.options.bodyLimit);
      assertKnownFields(body, fieldsOf(verifyBodySchema), "POST /api/v1/accounts/verify");
      return verifyEmail(service, workspace.id, parseWithSchema(verifyBodySchema, body, { named: true }).token);
    },
  },
  {
    method: "POST",
    path: "/api/v1/accounts/verify/resend",
    access: access.account,
    summary: "Mail a new verification token to the signed-in account's email (earlier ones stop working) → 202",
    response: { status: 202, description: "A new token was mailed" },
    async handler(event, { service, workspace, principal }) {
      const account = await getAccount(service, workspace.id, principal!.id);
      if (account.email_verified) throw conflict("This email address is already verified", { email_verified: true });
      // Before the hourly budget: a service that cannot mail must not spend the account's resends.
      requireMailTransport(service, "Email verification");
      const hit = await service.shared.hit(`verify-resend:${workspace.id}:${account.id}`, RESEND_LIMIT.windowMs);
      if (hit.count > RESEND_LIMIT.perHour) throw rateLimited(Math.max(1, Math.ceil(hit.resetMs / 1000)));
      await sendVerification(service, workspace, hostOf(event, service, workspace), account, "The verification e-mail could not be sent; try again later");
      event.res.status = 202;
      return { sent: true };
    },
  },
]);
