/**
 * The `svc` CLI: commander program with the global flags of DESIGN §4.1. Exit codes: 0 ok,
 * 1 failure, 2 usage error; errors are one line on stderr.
 */
import { Command, CommanderError } from "commander";
import { isServiceError } from "../core/errors.js";
import { UsageError } from "./errors.js";
import { registerServe } from "./serve.js";
import { registerWorkspaces } from "./workspaces.js";
import { registerInit } from "./init.js";
import { registerCommands } from "./commands.js";
import { packageVersion } from "./version.js";

/**
 * The whole program, or with `only: "serve"` the global options and `serve` alone: registering
 * every other command (~60 with their options) is a few ms of a start-up that never parses them.
 */
export function buildProgram(only?: "serve"): Command {
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
    .exitOverride();
  registerServe(program);
  if (only !== "serve") {
    registerInit(program);
    registerWorkspaces(program);
    registerCommands(program);
  }
  for (const cmd of program.commands) propagateExitOverride(cmd);
  return program;
}

function propagateExitOverride(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) propagateExitOverride(sub);
}

/** Runs the CLI; resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  // `svc serve …` as the first word is parsed by serve alone; anything else (help included) by all.
  const program = buildProgram(argv[0] === "serve" ? "serve" : undefined);
  try {
    await program.parseAsync(argv, { from: "user" });
    // A command that printed its result but failed (e.g. a test delivery refused) sets exitCode.
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return 0;
      return error.exitCode === 0 ? 0 : 2; // commander already printed the message
    }
    if (error instanceof UsageError) {
      process.stderr.write(`svc: ${error.message}\n`);
      return 2;
    }
    if (isServiceError(error)) {
      process.stderr.write(`svc: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`svc: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
}
