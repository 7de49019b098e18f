/**
 * `svc site deploy|deploys|rollback`: the static site of a workspace, through the same service
 * functions as the HTTP API (a deploy from the CLI is live on the server's very next request).
 */
import type { Command } from "commander";
import { readdir, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";
import { deploySite, listDeploys, rollbackSite, type LiveDeploy } from "../services/sites.js";
import type { DeployRecord } from "../services/sites.js";

const line = (d: DeployRecord) => `${d.id}  ${d.created_at}  ${d.file_count} files  ${d.size} bytes${d.live ? "  live" : ""}`;
const switched = (verb: string, d: LiveDeploy) => `${verb} ${d.id} (${d.file_count} files, ${d.size} bytes); live now${d.previous_deploy_id ? `, previous ${d.previous_deploy_id}` : ""}`;

/**
 * A gzip-compressed tar stream of `dir`'s contents (paths relative to it). Symbolic links are
 * stored as links, which the service refuses: a deploy never reaches outside its directory.
 *
 * @example
 * await deploySite(ctx, ws.id, await packDirectory("./dist"));
 */
export async function packDirectory(dir: string): Promise<AsyncIterable<Uint8Array>> {
  const root = resolve(dir);
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`${dir} is not a directory`);
  const names = (await readdir(root)).sort();
  if (names.length === 0) throw new UsageError(`${dir} is empty; nothing to deploy`);
  // Loaded here: only a deploy needs tar, not every command.
  const { create: createTar } = await import("tar");
  return createTar({ gzip: true, cwd: root, portable: true }, names) as unknown as AsyncIterable<Uint8Array>;
}

export function registerSite(program: Command): void {
  const site = program.command("site").description("Deploy and roll back a workspace's static site");

  site
    .command("deploy <dir>")
    .description("Pack a built site directory (tar.gz) and make it the live deploy")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (dir: string, opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const deploy = await deploySite(svc.context, ws.id, await packDirectory(dir));
        out.result(deploy, () => switched("Deployed", deploy));
      });
    });

  site
    .command("deploys")
    .description("List deploys, newest first, the live one marked")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .option("--limit <n>", "how many (1-100)", "50")
    .action(async (opts: { workspace: string; limit: string }, cmd: Command) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError(`--limit must be 1-100, got ${opts.limit}`);
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const page = await listDeploys(svc.context, ws.id, { limit, offset: 0 });
        out.result(page, () => (page.data.length ? page.data.map(line) : "No deploys"));
      });
    });

  site
    .command("rollback")
    .description("Make the previous deploy live again, or the one named with --to")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .option("--to <deploy_id>", "the deploy to make live")
    .action(async (opts: { workspace: string; to?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const deploy = await rollbackSite(svc.context, ws.id, opts.to);
        out.result(deploy, () => switched("Rolled back to", deploy));
      });
    });
}
