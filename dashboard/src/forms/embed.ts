// What a site author pastes to collect a form's submissions: the public submit URL and a plain
// HTML form posting to it (urlencoded, or multipart when a field takes a file), plus a fetch()
// variant that stays on the page. Every name, label and option is HTML-escaped: they are the
// form author's text and end up inside someone's page.

/**
 * What a snippet needs of a form definition: a structural part of the API's `Form`, which the
 * form page passes (kept import-free so unit tests load this file without the dashboard's build).
 */
export interface EmbeddableForm {
  slug: string;
  name: string;
  honeypot: string;
  fields: FormField[];
}
interface FormField {
  name: string;
  type: string;
  label?: string;
  required?: boolean;
  options?: string[];
  max_length?: number;
}

/**
 * The site host the public endpoints answer on. The dashboard runs on its own host (by default
 * `admin.<first site host>`): the site host it was derived from is preferred, else the first one.
 */
export function publicHost(hosts: readonly string[], dashboardHost: string): string | undefined {
  const base = dashboardHost.startsWith("admin.") ? dashboardHost.slice("admin.".length) : undefined;
  return base && hosts.includes(base) ? base : hosts[0];
}

/** `https://host[:port]/api/v1/forms/<slug>/submit`, with the dashboard's own scheme and port (the same server serves both). */
export function submitUrl(host: string, slug: string, where: { protocol: string; port: string }): string {
  return `${where.protocol}//${host}${where.port ? `:${where.port}` : ""}/api/v1/forms/${encodeURIComponent(slug)}/submit`;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text safe inside an element and inside a double-quoted attribute. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const INPUT_TYPES: Record<string, string> = { string: "text", email: "email", url: "url", number: "number", date: "date", file: "file" };

function control(field: FormField, id: string): string {
  const name = escapeHtml(field.name);
  const required = field.required ? " required" : "";
  const max = field.max_length ? ` maxlength="${field.max_length}"` : "";
  if (field.type === "text") return `<textarea id="${id}" name="${name}" rows="5"${max}${required}></textarea>`;
  if (field.type === "select") {
    const options = (field.options ?? []).map((o) => `    <option value="${escapeHtml(o)}">${escapeHtml(o)}</option>`);
    return [`<select id="${id}" name="${name}"${required}>`, `    <option value="">Choose…</option>`, ...options, "  </select>"].join("\n");
  }
  // An unchecked box sends nothing, which the service stores as unchecked.
  if (field.type === "boolean") return `<input id="${id}" type="checkbox" name="${name}" value="true"${required}>`;
  const step = field.type === "number" ? ' step="any"' : "";
  return `<input id="${id}" type="${INPUT_TYPES[field.type] ?? "text"}" name="${name}"${step}${max}${required}>`;
}

/** The id of the embedded `<form>` element, shared by both snippets. */
export const formElementId = (form: Pick<EmbeddableForm, "slug">) => `${form.slug}-form`;

/** A complete `<form>` that posts every field of `form` to `url`, the honeypot hidden from people. */
export function embedHtml(form: EmbeddableForm, url: string): string {
  const multipart = form.fields.some((f) => f.type === "file");
  const lines = [
    `<!-- ${escapeHtml(form.name)}: the service answers 201 with {"id": …}; the fetch() example keeps visitors on your page. -->`,
    `<form id="${escapeHtml(formElementId(form))}" method="post" action="${escapeHtml(url)}"${multipart ? ' enctype="multipart/form-data"' : ""}>`,
  ];
  for (const field of form.fields) {
    const id = escapeHtml(`${form.slug}-${field.name}`);
    const label = escapeHtml(field.label || field.name);
    if (field.type === "boolean") lines.push(`  <p><label>${control(field, id)} ${label}</label></p>`);
    else lines.push(`  <p><label for="${id}">${label}</label>`, `  ${control(field, id)}</p>`);
  }
  const honeypot = escapeHtml(form.honeypot);
  lines.push(
    "  <!-- Spam trap: people never see it; a bot that fills it in is answered as usual but nothing is stored. -->",
    `  <p hidden><label>Leave this empty <input type="text" name="${honeypot}" tabindex="-1" autocomplete="off"></label></p>`,
    '  <button type="submit">Send</button>',
    "</form>",
  );
  return lines.join("\n") + "\n";
}

/** A JavaScript string literal that cannot end the surrounding `<script>` element. */
const js = (value: string) => JSON.stringify(value).replace(/</g, "\\u003c");

/** A script for the page holding {@link embedHtml}: sends the form with fetch() and reports in place. */
export function fetchExample(form: EmbeddableForm, url: string): string {
  return `<p id="${escapeHtml(formElementId(form))}-status" role="status"></p>
<script type="module">
  const form = document.getElementById(${js(formElementId(form))});
  const status = document.getElementById(${js(`${formElementId(form)}-status`)});
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // FormData sends every field, files included, as multipart/form-data.
    const res = await fetch(${js(url)}, { method: "POST", body: new FormData(form) });
    const body = await res.json().catch(() => ({}));
    if (res.ok) {
      form.reset();
      status.textContent = "Thank you, we got it.";
    } else {
      status.textContent = body.error ?? "Sending failed, please try again.";
    }
  });
</script>
`;
}
