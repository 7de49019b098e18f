import { describe, expect, it } from "vitest";
import { type LookupAll } from "../../src/webhooks/index.js";
import { createDestinations } from "../../src/webhooks/deliver.js";
import { CA, contentEvent, sourceOf, target, dispatcherRig } from "./helpers.js";

const { receiver, dispatcher } = dispatcherRig({ source: sourceOf(), retryDelaysMs: [20, 20] });

/** Resolver for the fake name hooks.test; records every call. */
function fakeDns(answers: Record<string, { address: string; family: 4 | 6 }[]>) {
  const calls: string[] = [];
  const lookup: LookupAll = async (hostname) => {
    calls.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return found;
  };
  return { lookup, calls };
}

const LOOPBACK = { "hooks.test": [{ address: "127.0.0.1", family: 4 as const }] };

describe("connect-time address check (DESIGN 5)", () => {
  it("refuses a name resolving to 127.0.0.1 at connect time; the receiver gets nothing", async () => {
    const r = await receiver();
    const dns = fakeDns(LOOPBACK);
    const d = dispatcher({ lookup: dns.lookup, allowPrivateTargets: false });
    const result = await d.deliverNow(target(r.url("/hook", "hooks.test")), contentEvent("content.created"), { retries: true });
    expect(result).toMatchObject({ ok: false, status: null, attempts: 3 });
    expect(result.error).toMatch(/^address 127\.0\.0\.1 is not allowed \(a loopback address; .*--allow-private-webhook-targets/);
    expect(dns.calls).toContain("hooks.test");
    expect(r.requests).toHaveLength(0);
    expect(d.logger.text()).toContain("address 127.0.0.1 is not allowed");
  });

  it("refuses the whole answer when any resolved address is forbidden", async () => {
    const r = await receiver();
    const dns = fakeDns({ "hooks.test": [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.8", family: 4 }] });
    const d = dispatcher({ lookup: dns.lookup });
    const result = await d.deliverNow(target(r.url("/hook", "hooks.test")), contentEvent("content.created"));
    expect(result.error).toMatch(/^address 10\.0\.0\.8 is not allowed \(a private address; .*SVC_WEBHOOKS_ALLOW_PRIVATE=1/);
    expect(r.requests).toHaveLength(0);
  });

  it.each([
    ["127.0.0.1", "https://127.0.0.1:1/hook"],
    ["::1", "https://[::1]:1/hook"],
    ["169.254.169.254", "https://169.254.169.254/latest/meta-data"],
  ])("refuses the IP literal %s without a lookup", async (address, url) => {
    const dns = fakeDns({});
    const d = dispatcher({ lookup: dns.lookup });
    const result = await d.deliverNow(target(url), contentEvent("content.created"));
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(new RegExp(`^address ${address.replace(/\./g, "\\.")} is not allowed \\(`));
    // Only what the private-targets switch would admit names it: link-local never does.
    expect(result.error!.includes("--allow-private-webhook-targets")).toBe(address !== "169.254.169.254");
    expect(dns.calls).toHaveLength(0);
  });

  it("even with allowPrivateTargets, link-local (cloud metadata) stays refused", async () => {
    const dns = fakeDns({ "hooks.test": [{ address: "169.254.169.254", family: 4 }] });
    const d = dispatcher({ lookup: dns.lookup, allowPrivateTargets: true });
    const result = await d.deliverNow(target("https://hooks.test/x"), contentEvent("content.created"));
    expect(result.error).toBe("address 169.254.169.254 is not allowed (a link-local address)");
  });

  it("with allowPrivateTargets, connects to the checked address and verifies TLS for the URL hostname", async () => {
    const r = await receiver();
    const dns = fakeDns(LOOPBACK);
    const d = dispatcher({ lookup: dns.lookup, allowPrivateTargets: true });
    const result = await d.deliverNow(target(r.url("/hook", "hooks.test")), contentEvent("content.created"));
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0].headers.host).toBe(`hooks.test:${r.port}`);
  });

  it("verifies the certificate: without the test CA the delivery fails", async () => {
    const r = await receiver();
    const d = dispatcher({ ca: undefined, allowPrivateTargets: true }); // no test CA: system roots only
    const result = await d.deliverNow(target(r.url()), contentEvent("content.created"));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/certificate/i);
    expect(r.requests).toHaveLength(0);
  });

  it("an unresolvable name is a failed attempt", async () => {
    const d = dispatcher({ lookup: fakeDns({}).lookup, allowPrivateTargets: true });
    const result = await d.deliverNow(target("https://nowhere.test/x"), contentEvent("content.created"));
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toContain("ENOTFOUND");
  });

  it("http:// and malformed URLs are never delivered", async () => {
    const d = dispatcher({ allowPrivateTargets: true });
    expect((await d.deliverNow(target("http://127.0.0.1:1/x"), contentEvent("content.created"))).error).toBe(
      "only https:// webhook URLs are delivered",
    );
    expect((await d.deliverNow(target("not a url"), contentEvent("content.created"))).error).toBe("invalid webhook URL");
  });
});

describe("destinations: each webhook URL parsed and checked once per dispatcher", () => {
  it("answers the request options and host, the same object on the next attempt", () => {
    const destinations = createDestinations(false);
    const first = destinations("https://Hooks.Example:8443/in/x?a=1");
    expect(first).toEqual({ host: "hooks.example:8443", request: { protocol: "https:", hostname: "hooks.example", port: 8443, path: "/in/x?a=1", auth: undefined } });
    expect(destinations("https://Hooks.Example:8443/in/x?a=1")).toBe(first);
    expect(createDestinations(true)("https://user:pw@[::1]/x").request).toMatchObject({ hostname: "::1", auth: "user:pw" });
  });

  it("remembers why nothing can be sent, per setting of allowPrivateTargets", () => {
    expect(createDestinations(false)("https://127.0.0.1/x")).toEqual({ host: "", error: expect.stringMatching(/^address 127\.0\.0\.1 is not allowed/) });
    expect(createDestinations(true)("https://127.0.0.1/x").request).toMatchObject({ hostname: "127.0.0.1" });
    // Link-local (cloud metadata) stays refused even with private targets allowed.
    expect(createDestinations(true)("https://169.254.169.254/x").error).toMatch(/^address 169\.254\.169\.254 is not allowed/);
    expect(createDestinations(true)("http://127.0.0.1/x").error).toBe("only https:// webhook URLs are delivered");
    expect(createDestinations(true)("not a url").error).toBe("invalid webhook URL");
  });

  it("holds at most `max` URLs", () => {
    const destinations = createDestinations(true, 2);
    const a = destinations("https://a.example/");
    destinations("https://b.example/");
    destinations("https://c.example/");
    expect(destinations("https://a.example/")).not.toBe(a);
    expect(destinations("https://a.example/")).toEqual(a);
  });
});
