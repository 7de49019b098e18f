import { expect, it } from "vitest";
import * as webhooks from "../../src/webhooks/index.js";

// The public surface of `contentsvc/webhooks` changes only on purpose.
it("exports exactly the public API", () => {
  expect(Object.keys(webhooks).sort()).toEqual([
    "AddressNotAllowedError",
    "SIGNATURE_HEADER",
    "createDispatcher",
    "signBody",
    "signDelivery",
    "toDeliveryBody",
  ]);
  expect(webhooks.SIGNATURE_HEADER).toBe("X-Service-Signature");
  // HMAC-SHA256("s", "{}"), computed independently.
  const expected = "sha256=143ca8d517ba1b181025d732b1cf275d90104fca57bb02a565542978aa18c4b6";
  expect(webhooks.signBody("s", Buffer.from("{}"))).toBe(expected);
  expect(webhooks.signBody("s", "{}")).toBe(expected);
});
