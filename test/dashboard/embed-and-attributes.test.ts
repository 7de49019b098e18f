/**
 * The dashboard's pure helpers behind the form page and the end-user attributes: which site host
 * the public submit URL uses, the embed snippet's escaping, and attribute rows to typed values.
 */
import { describe, expect, it } from "vitest";
import { embedHtml, fetchExample, publicHost, submitUrl, type EmbeddableForm } from "../../dashboard/src/forms/embed.js";
import { fromRows, toRows } from "../../dashboard/src/endusers/attributes.js";

const form = (fields: EmbeddableForm["fields"], name = "Contact"): EmbeddableForm => ({ slug: "contact", name, fields, honeypot: "_gotcha" });

describe("public submit URL", () => {
  it.each([
    [["demo.localhost", "localhost"], "admin.localhost", "localhost"], // the host the dashboard host was derived from
    [["a.example", "b.example"], "admin.b.example", "b.example"],
    [["a.example", "b.example"], "dash.example", "a.example"], // a chosen dashboard host: the first site host
    [[], "admin.localhost", undefined],
  ])("site hosts %j seen from %s → %s", (hosts, dashboard, expected) => {
    expect(publicHost(hosts, dashboard)).toBe(expected);
  });

  it("keeps the dashboard's scheme and port", () => {
    expect(submitUrl("localhost", "contact", { protocol: "http:", port: "3000" })).toBe("http://localhost:3000/api/v1/forms/contact/submit");
    expect(submitUrl("example.com", "contact", { protocol: "https:", port: "" })).toBe("https://example.com/api/v1/forms/contact/submit");
  });
});

describe("embed snippet", () => {
  it("escapes the form author's text and cannot end its comment or script early", () => {
    const html = embedHtml(form([{ name: "topic", type: "select", label: '"><script>x</script>', options: ["a & b", "</select>"] }], "Hi --> <b>"), "https://h/s?a=1&b=2");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("--> <b>");
    expect(html).toContain('action="https://h/s?a=1&amp;b=2"');
    expect(html).toContain('<option value="a &amp; b">a &amp; b</option>');
    expect(html).toContain('<option value="&lt;/select&gt;">&lt;/select&gt;</option>');
    expect(html).toContain("&quot;&gt;&lt;script&gt;x&lt;/script&gt;</label>");
    expect(fetchExample(form([]), "https://h/</script>")).toContain('fetch("https://h/\\u003c/script>"');
  });

  it("is multipart only with a file field, and marks required fields", () => {
    expect(embedHtml(form([{ name: "a", type: "string", required: true }]), "u")).not.toContain("enctype");
    expect(embedHtml(form([{ name: "a", type: "string", required: true }]), "u")).toContain('name="a" required>');
    expect(embedHtml(form([{ name: "cv", type: "file" }]), "u")).toContain('enctype="multipart/form-data"');
  });
});

describe("attribute rows", () => {
  it("round-trips every kind of value", () => {
    const attributes = { plan: "pro", seats: 5, beta: false, roles: ["editor", 2], none: null };
    const result = fromRows(toRows(attributes));
    expect(result).toEqual({ attributes });
  });

  it("names the rows that cannot be read", () => {
    const result = fromRows([
      { name: "", kind: "string", value: "x" },
      { name: "n", kind: "number", value: "five" },
      { name: "n", kind: "string", value: "again" },
      { name: "l", kind: "list", value: '{"a":1}' },
      { name: "e", kind: "number", value: " " },
    ]);
    expect("errors" in result && result.errors).toEqual({
      0: "Give the attribute a name.",
      1: "Not a number: type digits, e.g. 5 or 2.5.",
      2: "Another row is already named n.",
      3: 'A list is a JSON array, e.g. ["editor", "author"].',
      4: "Not a number: type digits, e.g. 5 or 2.5.",
    });
  });
});
