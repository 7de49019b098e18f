/**
 * Versioned migrations, applied in order at start. Append only: never edit a shipped migration.
 */
import type { Dialect } from "../sql.js";
import { initial } from "./001-initial.js";
import { contentVersions } from "./002-content-versions.js";
import { entryCounts } from "./003-entry-counts.js";
import { listIndexes } from "./004-list-indexes.js";
import { statementTriggers } from "./005-statement-triggers.js";
import { siteBlobs } from "./006-site-blobs.js";
import { identityVerification } from "./007-identity-verification.js";
import { dashboardHosts } from "./008-dashboard-hosts.js";
import { webhookOutbox } from "./009-webhook-outbox.js";
import { queryIndexes } from "./010-query-indexes.js";
import { webhookDeliveries } from "./011-webhook-deliveries.js";
import { credentialsVersions } from "./012-credentials-versions.js";
import { entryDeliveries } from "./013-entry-deliveries.js";
import { versionPush } from "./014-version-push.js";
import { deliveryRowids } from "./015-delivery-rowids.js";
import { uploadUsage } from "./016-upload-usage.js";
import { tokenFamilies } from "./017-token-families.js";
import { keyNarrowing } from "./018-key-narrowing.js";

export interface Migration {
  id: number;
  name: string;
  sql: (dialect: Dialect) => string;
}

export const migrations: Migration[] = [
  { id: 1, name: "initial", sql: () => initial },
  { id: 2, name: "content-versions", sql: contentVersions },
  { id: 3, name: "entry-counts", sql: entryCounts },
  { id: 4, name: "list-indexes", sql: listIndexes },
  { id: 5, name: "statement-triggers", sql: statementTriggers },
  { id: 6, name: "site-blobs", sql: siteBlobs },
  { id: 7, name: "identity-verification", sql: identityVerification },
  { id: 8, name: "dashboard-hosts", sql: dashboardHosts },
  { id: 9, name: "webhook-outbox", sql: webhookOutbox },
  { id: 10, name: "query-indexes", sql: queryIndexes },
  { id: 11, name: "webhook-deliveries", sql: webhookDeliveries },
  { id: 12, name: "credentials-versions", sql: credentialsVersions },
  { id: 13, name: "entry-deliveries", sql: entryDeliveries },
  { id: 14, name: "version-push", sql: versionPush },
  { id: 15, name: "delivery-rowids", sql: deliveryRowids },
  { id: 16, name: "upload-usage", sql: uploadUsage },
  { id: 17, name: "token-families", sql: tokenFamilies },
  { id: 18, name: "key-narrowing", sql: keyNarrowing },
];
