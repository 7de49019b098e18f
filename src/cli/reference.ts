/**
 * Generated references: the CLI (from commander's own definitions) and the configuration (from
 * the zod schema and the environment table). docs/cli.md and docs/configuration.md are these
 * renderings; a test fails when they are stale.
 */
import type { Command, Option } from "commander";
import { CONFIG_DEFAULTS, configSchema, ENV_VARS } from "./config.js";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function optionRow(o: Option): string {
  const def = o.defaultValue === undefined || o.defaultValue === false ? "" : ` (default: ${JSON.stringify(o.defaultValue)})`;
  return `| \`${o.flags}\` | ${cell(o.description + def)} |`;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function usageArgs(cmd: Command): string {
  return cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? "..." : ""}>` : `[${a.name()}${a.variadic ? "..." : ""}]`)).join(" ");
}

/** Markdown for every command of `program`, depth first, in definition order. */
export function renderCliReference(program: Command): string {
  const out: string[] = [
    "# CLI reference",
    "",
    "<!-- generated from the commander definitions by src/cli/reference.ts; do not edit by hand -->",
    "",
    `${program.description()}`,
    "",
    "The package installs this binary under two names, `svc` and `contentsvc` (`npx contentsvc serve` where",
    "another package already provides an `svc` command); every example below works with either.",
    "",
    "## Output and exit codes",
    "",
    "| exit code | meaning |",
    "|---|---|",
    "| 0 | success (also `--help` and `--version`) |",
    "| 1 | failure: the service refused or could not do it (an unknown collection or entry, an invalid field value, a conflict, a test delivery that failed, …) |",
    "| 2 | usage error: an unknown command or option, a missing argument, option or command (`svc webhooks` alone), a flag value the command cannot take (also a query flag of `entries list` that the query parser refuses), an unknown workspace |",
    "",
    "Errors go to stderr: `svc: <message>` on one line (a usage error adds a hint or the command's",
    "help). With `--json`, an error is one line of JSON instead, `{\"error\": \"<message>\"}` plus the same",
    "extra keys as the HTTP API's error body (for example `field`, `parameter` or `grant`), with the same",
    "exit code; a warning is `{\"warning\": \"<message>\"}` on stderr. Stdout carries only the result: with",
    "`--json` exactly one JSON document (or one per line for `webhooks listen`).",
    "",
    "A list prints `{data, meta}` as the HTTP API does (`meta.total`, plus `limit` and `offset` when",
    "paged). Three lists print a plain array instead, a format fixed since the first release that",
    "scripts read: `workspaces list`, `keys list` and `webhooks list`.",
    "",
    "## Global options",
    "",
    "| option | meaning |",
    "|---|---|",
    ...program.options.map(optionRow),
    "",
  ];
  const visit = (cmd: Command) => {
    for (const sub of cmd.commands) {
      if (sub.name() === "help") continue;
      const runnable = sub.commands.length === 0;
      out.push(`## \`${commandPath(sub)}${usageArgs(sub) ? ` ${usageArgs(sub)}` : ""}\``, "", sub.description(), "");
      if (runnable && sub.options.length) out.push("| option | meaning |", "|---|---|", ...sub.options.map(optionRow), "");
      visit(sub);
    }
  };
  visit(program);
  return out.join("\n");
}

/** Markdown for the configuration: each setting, its flag, environment variable and default. */
export function renderConfigReference(defaults: Record<string, unknown>): string {
  const envOf = (key: string) => Object.entries(ENV_VARS).find(([, k]) => k === key)?.[0];
  // A setting that defaults to true is switched by its negation (`--no-dashboard`).
  const flagOf = (key: string) => `--${CONFIG_DEFAULTS[key as keyof typeof CONFIG_DEFAULTS] === true ? "no-" : ""}${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const rows = Object.entries(configSchema.shape).map(([key, schema]) => {
    const env = envOf(key);
    const def = defaults[key] === undefined ? "—" : `\`${JSON.stringify(defaults[key])}\``;
    return `| \`${key}\` | \`${flagOf(key)}\` | ${env ? `\`${env}\`` : "—"} | ${def} | ${cell(schema.description ?? "")} |`;
  });
  return [
    "# Configuration reference",
    "",
    "<!-- generated from the zod schema in src/cli/config.ts by src/cli/reference.ts; do not edit by hand -->",
    "",
    "Precedence: command-line flag, then environment variable, then config file (`svc.config.ts`,",
    "`svc.config.mjs`, `svc.config.js` or `svc.config.json` in the current directory, or `--config <file>`),",
    "then the default. An invalid value stops the command with a message naming the setting and where it",
    "came from (exit code 2). In a config file, settings use the keys of the first column.",
    "",
    "| setting | flag | environment | default | meaning |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "Secrets are never settings in a file:",
    "",
    "| environment | meaning |",
    "|---|---|",
    "| `SVC_SECRET_KEY` | master key for secrets at rest (webhook secrets, custom header values): base64 of 32 bytes. Default: generated into `<data>/secret.key` (mode 0600) on first run. Every instance of one deployment needs the same key. |",
    "| `SVC_SECRET_KEYS_OLD` | comma-separated older master keys, still accepted to open values sealed before a rotation |",
    "",
    "Mail to end users (verification e-mails, [Identity](identity.md#mail-transport)) goes out through `smtpUrl`;",
    "`devMail` prints it, tokens included, to the log instead (development only: `svc serve` warns at start).",
    "With neither, self sign-up cannot be turned on and nothing with a token is logged. `smtpUrl` carries a",
    "password: keep it in the environment rather than in a flag (the process list shows flags) or a committed file.",
    "",
  ].join("\n");
}
