/**
 * The public surface of the package: each entry's export names are pinned, so nothing is added
 * or removed by accident. Imports go through the package name, as users write them.
 */
import { describe, expect, it } from "vitest";

describe("package exports", () => {
  it("contentsvc", async () => {
    expect(Object.keys(await import("contentsvc")).sort()).toEqual(["EVENT_NAMES", "ServiceError", "createService", "isServiceError", "openDatabase"]);
  });
  it("contentsvc/h3", async () => {
    expect(Object.keys(await import("contentsvc/h3")).sort()).toEqual([
      "allowAccountSession",
      "requireAccountSession",
      "requireGrant",
      "requireKey",
      "requireOwner",
      "tenant",
    ]);
  });
  it("contentsvc/signature", async () => {
    expect(Object.keys(await import("contentsvc/signature")).sort()).toEqual(["SIGNATURE_HEADER", "STANDARD_WEBHOOK_HEADERS", "signPayload", "signStandardWebhook", "standardWebhookKey", "verifyNodeRequest", "verifyRequest", "verifySignature", "verifyStandardWebhook"]);
  });
  it("contentsvc/grants", async () => {
    expect(Object.keys(await import("contentsvc/grants")).sort()).toEqual(
      ["ACTIONS", "ALL_GRANTS", "RESOURCES", "assertGrant", "expandGrants", "hasGrant", "isGrant", "parseGrant", "parseGrants"].sort(),
    );
  });
  it("contentsvc/webhooks", async () => {
    const names = Object.keys(await import("contentsvc/webhooks"));
    expect(names).toContain("createDispatcher");
  });
});
