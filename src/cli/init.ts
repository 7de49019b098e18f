/**
 * `svc init [dir]`: writes a config file and an example webhook receiver from templates/.
 */
import type { Command } from "commander";
import { existsSync, mkdirSync, readdirSync, copyFileSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createOutput } from "./output.js";

/** templates/ sits beside dist/ and src/ in the package. */
export function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, "templates"))) return join(dir, "templates");
    dir = dirname(dir);
  }
  throw new Error("templates directory not found in the contentsvc package");
}

export function registerInit(program: Command): void {
  program
    .command("init [dir]")
    .description("Write svc.config.json and example webhook receivers into a directory")
    .option("--force", "overwrite existing files", false)
    .action(async (dir: string | undefined, opts: { force: boolean }, cmd: Command) => {
      const out = createOutput(Boolean(cmd.optsWithGlobals<{ json?: boolean }>().json));
      const target = resolve(dir ?? ".");
      mkdirSync(target, { recursive: true });
      const written: string[] = [];
      const skipped: string[] = [];
      const src = templatesDir();
      for (const name of readdirSync(src)) {
        const dest = join(target, name);
        if (existsSync(dest) && !opts.force) {
          skipped.push(name);
          continue;
        }
        copyFileSync(join(src, name), dest);
        written.push(name);
      }
      out.result({ dir: target, written, skipped }, () => [
        ...written.map((f) => `wrote ${join(target, f)}`),
        ...skipped.map((f) => `kept existing ${join(target, f)} (use --force to overwrite)`),
      ]);
    });
}
