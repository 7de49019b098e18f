/**
 * The `svc` CLI: commander program with the global flags of DESIGN §4.1. Exit codes: 0 ok,
 * 1 failure, 2 usage error; errors are one line on stderr (src/cli/errors.ts).
 */
import { Command } from "commander";
import { reportError } from "./errors.js";
import { registerServe } from "./serve.js";
import { registerWorkspaces } from "./workspaces.js";
import { registerInit } from "./init.js";
import { registerCommands } from "./commands.js";
import { packageVersion } from "./version.js";

/**
 * The whole program, or with `only: "serve"` the global options and `serve` alone: registering
 * every other command (~60 with their options) is a few ms of a start-up that never parses them.
 */
export function buildProgram(only?: "serve", options: { json?: boolean } = {}): Command {
  const program = new Command("svc")
    .description("contentsvc: multi-tenant headless content service")
    .version(packageVersion(), "-V, --version", "print the version of contentsvc")
    .option("--data <dir>", "data directory [SVC_DATA_DIR] (default ./.svc)")
    .option("--database <url>", "database URL, postgres://… or a SQLite file [SVC_DATABASE_URL]")
    .option("--blobs <url-or-dir>", "blob storage location [SVC_BLOBS]")
    .option("--redis <url>", "Redis URL for several instances [SVC_REDIS_URL]")
    .option("--config <file>", "config file (default svc.config.ts|mjs|json in the current directory)")
    .option("--json", "machine output on stdout")
    .option(
      "--allow-private-webhook-targets",
      "development only: allow webhook URLs on loopback/private addresses, saving and delivering alike (serve, webhooks create/test, every command that writes) [SVC_WEBHOOKS_ALLOW_PRIVATE=1]",
    )
    .showHelpAfterError("(run svc --help for usage)")
    // With --json, runCli prints commander's errors as JSON: nothing else may reach stderr.
    .configureOutput(options.json ? { writeErr: () => {} } : {})
    .exitOverride();
  registerServe(program);
  if (only !== "serve") {
    registerInit(program);
    registerWorkspaces(program);
    registerCommands(program);
  }
  // Subcommands copy these settings when created; the loop makes sure none was made otherwise.
  for (const cmd of program.commands) propagateSettings(cmd, program);
  return program;
}

function propagateSettings(cmd: Command, program: Command): void {
  cmd.exitOverride().configureOutput(program.configureOutput());
  for (const sub of cmd.commands) propagateSettings(sub, program);
}

/** The command of `svc a b …` that commander reached last (its name, for "missing command"). */
function trackReached(program: Command): () => string {
  let reached = program;
  const visit = (cmd: Command) => {
    if (cmd.commands.length === 0) return;
    cmd.hook("preSubcommand", (_cmd, sub) => {
      reached = sub;
    });
    cmd.commands.forEach(visit);
  };
  visit(program);
  return () => {
    const names: string[] = [];
    for (let c: Command | null = reached; c; c = c.parent) names.unshift(c.name());
    return names.join(" ");
  };
}

/** Runs the CLI; resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  // Known before parsing, since a usage error stops commander before any option is read.
  const end = argv.indexOf("--");
  const json = (end === -1 ? argv : argv.slice(0, end)).includes("--json");
  // `svc serve …` as the first word is parsed by serve alone; anything else (help included) by all.
  const program = buildProgram(argv[0] === "serve" ? "serve" : undefined, { json });
  const reached = trackReached(program);
  try {
    await program.parseAsync(argv, { from: "user" });
    // A command that printed its result but failed (e.g. a test delivery refused) sets exitCode.
    return Number(process.exitCode ?? 0);
  } catch (error) {
    return reportError(error, json, reached());
  }
}
