import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../../src/core/errors.js";
import {
  DEBOUNCE_MAX_MS,
  addressRefusal,
  FORBIDDEN_HEADER_NAMES,
  MAX_CUSTOM_HEADERS,
  MAX_HEADER_VALUE_LENGTH,
  applyHeaderUpdate,
  isForbiddenAddress,
  validateDebounce,
  validateEvents,
  validateFormat,
  validateHeaderName,
  validateHeaderValue,
  validateHeadersForCreate,
  validateWebhookUrl,
} from "../../src/core/webhook-policy.js";

/** Runs `fn`, expects a 400 ServiceError, returns its message. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isServiceError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error("expected a 400 refusal");
}

// [url, substring the message must contain]
const SSRF: [string, string][] = [
  ["http://example.com/hook", "https"],
  ["HTTP://example.com/hook", "https"],
  ["ftp://example.com/", "https"],
  ["javascript:alert(1)", "https"],
  ["//example.com/hook", "valid absolute URL"],
  ["not a url", "whitespace"],
  ["https://", "valid absolute URL"],
  [" https://example.com/", "whitespace"],
  ["https://exa\nmple.com/", "control"],
  ["https://exa\tmple.com/", "control"],
  ["https://user:pass@example.com/", "credentials"],
  ["https://example.com@127.0.0.1/", "credentials"],
  ["https://user@example.com/", "credentials"],
  ["https://127.0.0.1\\@example.com/", "loopback"],
  ["https://127.0.0.1#@example.com/", "loopback"],
  ["https://127.0.0.1/", "loopback"],
  ["https://127.0.0.1:8443/x", "loopback"],
  ["https://127.255.255.254/", "loopback"],
  ["https://127.1/", "loopback"],
  ["https://2130706433/", "loopback"],
  ["https://0x7f000001/", "loopback"],
  ["https://0x7f.1/", "loopback"],
  ["https://0177.0.0.1/", "loopback"],
  ["https://%31%32%37.0.0.1/", "loopback"],
  ["https://１２７.０.０.１/", "loopback"],
  ["https://0.0.0.0/", "unspecified"],
  ["https://0/", "unspecified"],
  ["https://10.0.0.1/", "private"],
  ["https://10.255.255.255/", "private"],
  ["https://172.16.0.1/", "private"],
  ["https://172.31.255.254/", "private"],
  ["https://192.168.1.1/", "private"],
  ["https://169.254.169.254/latest/meta-data/", "link-local"],
  ["https://100.64.0.1/", "carrier-grade NAT"],
  ["https://100.127.255.254/", "carrier-grade NAT"],
  ["https://224.0.0.1/", "multicast"],
  ["https://239.255.255.250/", "multicast"],
  ["https://255.255.255.255/", "broadcast"],
  ["https://240.0.0.1/", "reserved"],
  ["https://192.0.2.10/", "documentation"],
  ["https://198.51.100.7/", "documentation"],
  ["https://203.0.113.9/", "documentation"],
  ["https://198.18.0.1/", "reserved"],
  ["https://[::1]/", "loopback"],
  ["https://[::]/", "unspecified"],
  ["https://[::ffff:127.0.0.1]/", "loopback"],
  ["https://[::ffff:7f00:1]/", "loopback"],
  ["https://[0:0:0:0:0:ffff:10.0.0.1]/", "private"],
  ["https://[::ffff:169.254.169.254]/", "link-local"],
  ["https://[::127.0.0.1]/", "not a global unicast"],
  ["https://[::ffff:0:7f00:1]/", "IPv4-translated"],
  ["https://[fc00::1]/", "unique-local"],
  ["https://[fd12::1]/", "unique-local"],
  ["https://[fe80::1]/", "link-local"],
  ["https://[fec0::1]/", "site-local"],
  ["https://[ff02::1]/", "multicast"],
  ["https://[2002:7f00:1::]/", "6to4"],
  ["https://[2002:5db8:d822::1]/", "6to4"],
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo"],
  ["https://[64:ff9b::7f00:1]/", "NAT64"],
  ["https://[2001:db8::1]/", "documentation"],
  ["https://[100::1]/", "discard"],
  ["https://localhost/", "local name"],
  ["https://LOCALHOST./", "local name"],
  ["https://localhost:3000/", "local name"],
  ["https://foo.localhost/", "local name"],
  ["https://demo.localhost./", "local name"],
  ["https://ｌｏｃａｌｈｏｓｔ/", "local name"],
  ["https://localhost。/", "local name"],
  ["https://localhost%2e/", "local name"],
  ["https://localhost../", "empty label"],
  ["https://printer.local/", "local name"],
  ["https://db.internal/", "local name"],
  ["https://metadata.google.internal/", "local name"],
  ["https://box.localdomain/", "local name"],
  ["https://nas.home.arpa/", "local name"],
  ["https://intranet/", "single-label"],
  ["https://intranet./", "single-label"],
  ["https://a..b.com/", "empty label"],
];

describe("validateWebhookUrl: SSRF corpus", () => {
  it("has a big corpus", () => expect(SSRF.length).toBeGreaterThanOrEqual(40));
  it.each(SSRF)("refuses %s", (url, fragment) => {
    expect(refusal(() => validateWebhookUrl(url))).toContain(fragment);
  });

  it.each([
    ["https://example.com/hook", "https://example.com/hook"],
    ["https://Hooks.Example.COM:8443/in?x=1", "https://hooks.example.com:8443/in?x=1"],
    ["HTTPS://EXAMPLE.COM:443/a", "https://example.com/a"],
    ["https://example.com./fqdn", "https://example.com./fqdn"],
    ["https://93.184.216.34/x", "https://93.184.216.34/x"],
    ["https://1.1.1.1/", "https://1.1.1.1/"],
    ["https://[2606:4700::1111]/", "https://[2606:4700::1111]/"],
    ["https://bücher.example/", "https://xn--bcher-kva.example/"],
    ["https://127.0.0.1.nip.io/", "https://127.0.0.1.nip.io/"], // a name: checked again on DNS answers at connect
  ])("accepts %s", (url, normalized) => {
    expect(validateWebhookUrl(url)).toBe(normalized);
  });

  it("refuses non-strings and overlong URLs", () => {
    for (const v of [undefined, null, 42, {}, ""]) expect(refusal(() => validateWebhookUrl(v))).toMatch(/url/);
    expect(refusal(() => validateWebhookUrl(`https://example.com/${"a".repeat(2100)}`))).toContain("longer");
  });

  it("never echoes userinfo (possible credential)", () => {
    expect(refusal(() => validateWebhookUrl("https://admin:hunter2@example.com/"))).not.toContain("hunter2");
  });

  it("allowPrivate admits loopback/private over https only", () => {
    const allow = { allowPrivate: true };
    expect(validateWebhookUrl("https://127.0.0.1:8443/", allow)).toBe("https://127.0.0.1:8443/");
    expect(validateWebhookUrl("https://localhost:8443/h", allow)).toBe("https://localhost:8443/h");
    expect(validateWebhookUrl("https://receiver/h", allow)).toBe("https://receiver/h");
    expect(validateWebhookUrl("https://10.1.2.3/", allow)).toBe("https://10.1.2.3/");
    expect(validateWebhookUrl("https://[::1]/", allow)).toBe("https://[::1]/");
    expect(validateWebhookUrl("https://[fd00::5]/", allow)).toBe("https://[fd00::5]/");
    expect(refusal(() => validateWebhookUrl("http://127.0.0.1:8443/", allow))).toContain("https");
    expect(refusal(() => validateWebhookUrl("https://u:p@127.0.0.1/", allow))).toContain("credentials");
    expect(refusal(() => validateWebhookUrl("https://169.254.169.254/", allow))).toContain("link-local");
    expect(refusal(() => validateWebhookUrl("https://0.0.0.0/", allow))).toContain("unspecified");
  });
});

describe("isForbiddenAddress", () => {
  it.each([
    ["127.0.0.1", true], ["127.1", true], ["2130706433", true], ["0x7f.1", true], ["0177.0.0.1", true],
    ["10.0.0.1", true], ["192.168.0.1", true], ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true],
    ["::1", true], ["[::1]", true], ["::ffff:10.0.0.1", true], ["fe80::1%eth0", true], ["fc00::1", true],
    ["", true], ["not-an-ip", true], ["example.com", true], ["300.1.1.1", true],
    ["93.184.216.34", false], ["8.8.8.8", false], ["2606:4700::1111", false], ["[2606:4700::1111]", false],
  ] as [string, boolean][])("%s -> %s", (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });

  it("allowPrivate option admits loopback/private only", () => {
    expect(isForbiddenAddress("127.0.0.1", { allowPrivate: true })).toBe(false);
    expect(isForbiddenAddress("::ffff:192.168.1.1", { allowPrivate: true })).toBe(false);
    expect(isForbiddenAddress("169.254.169.254", { allowPrivate: true })).toBe(true);
  });

  const v4In = (a: number, b?: number) =>
    fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([x, y, z]) => (b === undefined ? `${a}.${x}.${y}.${z}` : `${a}.${b}.${y}.${z}`));
  const privateV4 = fc.oneof(v4In(10), v4In(127), v4In(192, 168));

  it("fast-check: every address in 10/8, 127/8, 192.168/16 and its ::ffff: forms is forbidden", () => {
    fc.assert(
      fc.property(privateV4, (ip) => {
        const [a, b, c, d] = ip.split(".").map(Number);
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(isForbiddenAddress(ip)).toBe(true);
        expect(isForbiddenAddress(`::ffff:${ip}`)).toBe(true);
        expect(isForbiddenAddress(`::ffff:${hex}`)).toBe(true);
        expect(isForbiddenAddress(`0:0:0:0:0:ffff:${hex}`)).toBe(true);
      }),
    );
  });
});

describe("custom headers: names and values (spec 6.5)", () => {
  it.each(FORBIDDEN_HEADER_NAMES.flatMap((n) => [n, n.toUpperCase(), n.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase())]))(
    "refuses the dispatcher's own header %s",
    (name) => {
      expect(refusal(() => validateHeaderName(name))).toContain("not allowed");
    },
  );

  it.each(["X Bad", "X:Bad", "", "X-Bad\r\n", "(x)", "x/y", "ä", "x@y", "a\"b", "x,y", "x;y", "x=y", "{x}", "x\u0000"])(
    "refuses illegal token %j",
    (name) => {
      refusal(() => validateHeaderName(name));
    },
  );

  it("accepts every RFC 9110 tchar", () => {
    expect(validateHeaderName("X-Api-Key")).toBe("X-Api-Key");
    expect(validateHeaderName("!#$%&'*+-.^_`|~09azAZ")).toBe("!#$%&'*+-.^_`|~09azAZ");
  });

  it.each([
    ["CR", "a\rb"], ["LF", "a\nb"], ["CRLF injection", "x\r\nHost: evil"], ["NUL", "a\u0000"], ["DEL", "a\u007f"],
    ["tab", "a\tb"], ["ESC", "\u001b[31m"], ["C1 NEL", "a\u0085"], ["line separator", "a\u2028b"], ["zero-width space", "a\u200bb"],
    ["emoji", "✓"], ["leading space", " secret"], ["trailing space", "secret "], ["empty", ""],
  ])("refuses a value with %s, naming the header but not the value", (_label, value) => {
    const message = refusal(() => validateHeaderValue("X-Token", value));
    expect(message).toContain('"X-Token"');
    if (value.trim() !== "") expect(message).not.toContain(value.trim());
  });

  it("value length: 1024 ok, 1025 refused", () => {
    expect(validateHeaderValue("X", "a".repeat(MAX_HEADER_VALUE_LENGTH))).toHaveLength(1024);
    expect(refusal(() => validateHeaderValue("X", "a".repeat(MAX_HEADER_VALUE_LENGTH + 1)))).toContain("1024");
    expect(validateHeaderValue("X", "Bearer a.b-c_d= é")).toBe("Bearer a.b-c_d= é");
    expect(refusal(() => validateHeaderValue("X", 42))).toContain("string");
  });

  it("fast-check: a name containing any non-token character is refused", () => {
    const tchar = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
    const bad = fc.string({ unit: "binary", minLength: 1, maxLength: 1 }).filter((c) => !tchar.test(c));
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), bad, fc.string({ maxLength: 10 }), (pre, c, post) => {
        expect(() => validateHeaderName(pre + c + post)).toThrow();
      }),
    );
  });

  it("fast-check: a value containing any control character is refused", () => {
    const control = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f })).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), control, fc.string({ maxLength: 20 }), (pre, c, post) => {
        expect(() => validateHeaderValue("X-A", pre + c + post)).toThrow();
      }),
    );
  });
});

describe("validateHeadersForCreate", () => {
  it("undefined/null -> {}, valid object passes", () => {
    expect(validateHeadersForCreate(undefined)).toEqual({});
    expect(validateHeadersForCreate(null)).toEqual({});
    expect(validateHeadersForCreate({ Authorization: "Bearer x", "X-Env": "prod" })).toEqual({ Authorization: "Bearer x", "X-Env": "prod" });
  });

  it("keeps a __proto__ name as an own key", () => {
    const out = validateHeadersForCreate(JSON.parse('{"__proto__":"v"}'));
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it.each([
    ["an array", [["X", "1"]], "object"],
    ["a string", "X: 1", "object"],
    ["a forbidden name", { "Content-Type": "text/plain" }, "not allowed"],
    ["an illegal name", { "X Bad": "1" }, "legal HTTP header name"],
    ["a number value", { "X-A": 1 }, "string"],
    ["an empty value", { "X-A": "" }, "empty"],
    ["a case-insensitive duplicate", { "X-A": "1", "x-a": "2" }, "more than once"],
    ["11 headers", Object.fromEntries(Array.from({ length: MAX_CUSTOM_HEADERS + 1 }, (_, i) => [`X-${i}`, "v"])), "At most 10"],
    ["a CR in a value", { "X-A": "a\rb" }, "control"],
  ])("refuses %s", (_label, input, fragment) => {
    expect(refusal(() => validateHeadersForCreate(input))).toContain(fragment);
  });

  it("10 headers is fine", () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-${i}`, "v"]));
    expect(Object.keys(validateHeadersForCreate(ten))).toHaveLength(10);
  });
});

describe("applyHeaderUpdate: spec 4.3 PUT semantics", () => {
  const stored = { Authorization: "Bearer old", "X-Env": "prod" };
  it.each<[string, unknown, Record<string, string>]>([
    ["headers absent -> unchanged", undefined, stored],
    ["null -> cleared (4.3.2)", null, {}],
    ["{} -> cleared (4.3.2)", {}, {}],
    ["blank for every stored name -> cleared (4.3.2)", { Authorization: "", "X-Env": "" }, {}],
    ["blank for every stored name, other case -> cleared", { authorization: "", "x-env": "" }, {}],
    ["blank keeps the stored value (4.3.1)", { Authorization: "", "X-Env": "staging" }, { Authorization: "Bearer old", "X-Env": "staging" }],
    ["blank matched case-insensitively keeps", { AUTHORIZATION: "", "X-Env": "dev" }, { Authorization: "Bearer old", "X-Env": "dev" }],
    ["unmentioned names are kept; only others need be sent (4.3.1)", { "X-Env": "dev" }, { Authorization: "Bearer old", "X-Env": "dev" }],
    ["a new name is added, others kept", { "X-New": "1" }, { Authorization: "Bearer old", "X-Env": "prod", "X-New": "1" }],
    ["blanks keep, new ones set", { Authorization: "", "X-Env": "", "X-New": "1" }, { Authorization: "Bearer old", "X-Env": "prod", "X-New": "1" }],
    ["replacing with other casing takes the new name", { "x-env": "dev" }, { Authorization: "Bearer old", "x-env": "dev" }],
    ["blank for some stored names only keeps all", { Authorization: "" }, stored],
  ])("%s", (_label, input, expected) => {
    expect(applyHeaderUpdate(stored, input)).toEqual(expected);
  });

  it("does not mutate the stored object", () => {
    const copy = { ...stored };
    applyHeaderUpdate(copy, { "X-New": "1" });
    expect(copy).toEqual(stored);
  });

  it("a blank value for a name never set is a 400 naming it (4.3.3, 7)", () => {
    expect(refusal(() => applyHeaderUpdate(stored, { "X-Never": "" }))).toContain('"X-Never"');
    expect(refusal(() => applyHeaderUpdate(stored, { Authorization: "", "X-Env": "", "X-Never": "" }))).toContain('"X-Never"');
    expect(refusal(() => applyHeaderUpdate({}, { "X-Never": "" }))).toContain("never been set");
  });

  it("re-validates the result and every sent pair", () => {
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`X-${i}`, "v"]));
    expect(Object.keys(applyHeaderUpdate(nine, { "X-9": "v" }))).toHaveLength(10);
    expect(refusal(() => applyHeaderUpdate(nine, { "X-9": "v", "X-10": "v" }))).toContain("At most 10");
    expect(refusal(() => applyHeaderUpdate(stored, { Host: "evil" }))).toContain("not allowed");
    expect(refusal(() => applyHeaderUpdate(stored, { "X-Env": "a\nb" }))).toContain("control");
    expect(refusal(() => applyHeaderUpdate(stored, { "X-Env": "a", "x-env": "b" }))).toContain("more than once");
    expect(refusal(() => applyHeaderUpdate(stored, ["x"]))).toContain("object");
  });
});

describe("events, format, debounce", () => {
  it("validateEvents", () => {
    expect(validateEvents(["content.published", "form.submitted", "content.published"])).toEqual(["content.published", "form.submitted"]);
    expect(refusal(() => validateEvents([]))).toContain("at least one");
    expect(refusal(() => validateEvents("content.created"))).toContain("array");
    expect(refusal(() => validateEvents(["content.created", "content.exploded"]))).toContain('"content.exploded"');
    expect(refusal(() => validateEvents([42]))).toContain('"42"');
  });

  it("validateFormat", () => {
    expect(validateFormat(undefined)).toBe("service");
    expect(validateFormat(null)).toBe("service");
    expect(validateFormat("code_host_repository_dispatch")).toBe("code_host_repository_dispatch");
    expect(refusal(() => validateFormat("github"))).toContain('"github"');
  });

  it("validateDebounce", () => {
    expect(validateDebounce(undefined, undefined)).toEqual({ debounce_ms: 0, debounce_scope: "entry" });
    expect(validateDebounce(DEBOUNCE_MAX_MS, "webhook")).toEqual({ debounce_ms: 3_600_000, debounce_scope: "webhook" });
    for (const bad of [-1, 1.5, DEBOUNCE_MAX_MS + 1, "100", Number.NaN, Infinity]) expect(refusal(() => validateDebounce(bad, "entry"))).toContain("debounce_ms");
    expect(refusal(() => validateDebounce(0, "collection"))).toContain("debounce_scope");
  });
});

describe("refusals the private-targets switch would lift name it", () => {
  it.each([
    ["https://127.0.0.1:8787/", true],
    ["https://[::1]:8787/", true],
    ["https://10.1.2.3/", true],
    ["https://localhost:8787/", true],
    ["https://intranet/", true],
    ["https://169.254.169.254/", false],
    ["https://224.0.0.1/", false],
    ["http://127.0.0.1/", false],
  ])("%s → names the switch: %s", (url, named) => {
    const message = refusal(() => validateWebhookUrl(url));
    expect(message.includes("--allow-private-webhook-targets or SVC_WEBHOOKS_ALLOW_PRIVATE=1")).toBe(named);
  });

  it("addressRefusal explains a resolved address the same way", () => {
    expect(addressRefusal("127.0.0.1")).toMatch(/^a loopback address; .*--allow-private-webhook-targets/);
    expect(addressRefusal("169.254.169.254")).toBe("a link-local address");
    expect(addressRefusal("127.0.0.1", { allowPrivate: true })).toBeUndefined();
    expect(addressRefusal("93.184.216.34")).toBeUndefined();
  });
});
