/**
 * Every repository of a service, built once by createService and reached as `ctx.db.<name>`, so a
 * function's use of the database is named at its call site (`ctx.db.entries.get(…)`).
 *
 * Repositories are built from the storage context (storage/context.ts), which therefore cannot
 * carry them itself without every repository's type depending on all the others: `db` lives on the
 * service context (services/context.ts).
 */
import type { StorageContext } from "./context.js";
import { createAccountRepo } from "./accounts.js";
import { createApiKeyRepo } from "./api-keys.js";
import { createCollectionRepo } from "./collections.js";
import { createCredentialRepo } from "./credentials.js";
import { createDashboardTokenRepo } from "./dashboard-tokens.js";
import { createEmailVerificationRepo } from "./email-verifications.js";
import { createEndUserRepo } from "./end-users.js";
import { createEntryRepo } from "./entries.js";
import { createEntryDeliveryRepo } from "./entry-deliveries.js";
import { createFormRepo } from "./forms.js";
import { createMediaRepo } from "./media.js";
import { createMemberRepo } from "./members.js";
import { createRuleRepo } from "./rules.js";
import { createSiteBlobRepo } from "./site-blobs.js";
import { createSiteRepo } from "./sites.js";
import { createSubmissionRepo } from "./submissions.js";
import { createUploadUsageRepo } from "./upload-usage.js";
import { createDeliveryLogRepo } from "./webhook-deliveries.js";
import { createWebhookRepo } from "./webhooks.js";

export interface Repositories {
  accounts: ReturnType<typeof createAccountRepo>;
  apiKeys: ReturnType<typeof createApiKeyRepo>;
  collections: ReturnType<typeof createCollectionRepo>;
  credentials: ReturnType<typeof createCredentialRepo>;
  dashboardTokens: ReturnType<typeof createDashboardTokenRepo>;
  /** The webhook delivery log (webhooks with log_deliveries on). */
  deliveryLog: ReturnType<typeof createDeliveryLogRepo>;
  emailVerifications: ReturnType<typeof createEmailVerificationRepo>;
  endUsers: ReturnType<typeof createEndUserRepo>;
  entries: ReturnType<typeof createEntryRepo>;
  /** Entry pages as the delivery API serves them. */
  entryDeliveries: ReturnType<typeof createEntryDeliveryRepo>;
  forms: ReturnType<typeof createFormRepo>;
  media: ReturnType<typeof createMediaRepo>;
  members: ReturnType<typeof createMemberRepo>;
  rules: ReturnType<typeof createRuleRepo>;
  siteBlobs: ReturnType<typeof createSiteBlobRepo>;
  sites: ReturnType<typeof createSiteRepo>;
  submissions: ReturnType<typeof createSubmissionRepo>;
  uploadUsage: ReturnType<typeof createUploadUsageRepo>;
  webhooks: ReturnType<typeof createWebhookRepo>;
}

/** Builds every repository on `ctx` (each keeps it: build them once per service). */
export function createRepositories(ctx: StorageContext): Repositories {
  return {
    accounts: createAccountRepo(ctx),
    apiKeys: createApiKeyRepo(ctx),
    collections: createCollectionRepo(ctx),
    credentials: createCredentialRepo(ctx),
    dashboardTokens: createDashboardTokenRepo(ctx),
    deliveryLog: createDeliveryLogRepo(ctx),
    emailVerifications: createEmailVerificationRepo(ctx),
    endUsers: createEndUserRepo(ctx),
    entries: createEntryRepo(ctx),
    entryDeliveries: createEntryDeliveryRepo(ctx),
    forms: createFormRepo(ctx),
    media: createMediaRepo(ctx),
    members: createMemberRepo(ctx),
    rules: createRuleRepo(ctx),
    siteBlobs: createSiteBlobRepo(ctx),
    sites: createSiteRepo(ctx),
    submissions: createSubmissionRepo(ctx),
    uploadUsage: createUploadUsageRepo(ctx),
    webhooks: createWebhookRepo(ctx),
  };
}
