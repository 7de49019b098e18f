/**
 * `svc rules list|get|set|delete` (docs/access.md, Rules): the named conditions that gate
 * collections. A rule is addressed by its name or its id; `set` creates it or replaces its
 * condition. The CLI is the local owner, so changing a rule in use needs no further grant.
 */
import type { Command } from "commander";
import { listOf } from "../core/lists.js";
import { createRule, deleteRule, getRule, listRules, updateRule, type StoredRule } from "../services/rules.js";
import { OPERATOR } from "../services/gates.js";
import type { ServiceContext } from "../services/context.js";
import { parseJson } from "./args.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;
const line = (r: StoredRule) => `${r.id}\t${r.name}\t${JSON.stringify(r.condition)}`;

/** The rule named `ref`, else the rule with id `ref`; 404 when neither exists. */
async function findRule(ctx: ServiceContext, workspaceId: string, ref: string): Promise<StoredRule> {
  const byName = (await listRules(ctx, workspaceId)).find((r) => r.name === ref);
  return byName ?? getRule(ctx, workspaceId, ref);
}

export function registerRules(program: Command): void {
  const rules = program.command("rules").description("Rules: named conditions that gate collections (access: gated)");
  rules
    .command("list")
    .description("List rules")
    .option(...WS)
    .action(async (opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = listOf(await listRules(svc.context, ws.id));
        out.result(list, () => (list.data.length ? list.data.map(line) : "No rules"));
      });
    });
  rules
    .command("get <name-or-id>")
    .description("Show one rule")
    .option(...WS)
    .action(async (ref: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const rule = await findRule(svc.context, ws.id, ref);
        out.result(rule, () => line(rule));
      });
    });
  rules
    .command("set <name>")
    .description(`Create a rule or replace its condition, e.g. --condition '{"signed_in": true}'; collections gated by it follow at once`)
    .option(...WS)
    .requiredOption("--condition <json>", `the condition: {"signed_in": true}, {"account": {"field": …, "eq"|"in": …}}, {"all": […]}, {"any": […]}`)
    .option("--rename <name>", "give an existing rule a new name")
    .action(async (name: string, opts: { workspace?: string; condition: string; rename?: string }, cmd: Command) => {
      const condition = parseJson(opts.condition, "--condition");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const existing = (await listRules(svc.context, ws.id)).find((r) => r.name === name);
        if (opts.rename && !existing) throw new UsageError(`--rename: there is no rule ${name} to rename`);
        const body = { name: opts.rename ?? name, condition };
        const rule = existing ? await updateRule(svc.context, ws.id, existing.id, body, OPERATOR) : await createRule(svc.context, ws.id, body);
        out.result(rule, () => `${existing ? "Updated" : "Created"} rule ${rule.name} (${rule.id})`);
      });
    });
  rules
    .command("delete <name-or-id>")
    .description("Delete a rule; refused while a collection is gated by it")
    .option(...WS)
    .action(async (ref: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const rule = await findRule(svc.context, ws.id, ref);
        await deleteRule(svc.context, ws.id, rule.id);
        out.result({ id: rule.id, name: rule.name, deleted: true }, () => `Deleted rule ${rule.name}`);
      });
    });
}
