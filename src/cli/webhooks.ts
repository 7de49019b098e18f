/**
 * `svc webhooks list|create|test|secret|listen` (DESIGN §4.1).
 */
import type { Command } from "commander";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { readFileSync } from "node:fs";
import { consola } from "consola";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";
import { createOutput } from "./output.js";
import { repo } from "../storage/context.js";
import { createWebhookRepo, type WebhookRecord } from "../storage/webhooks.js";
import { validateEvents, validateFormat, validateHeadersForCreate, validateWebhookUrl } from "../core/webhook-policy.js";
import { isEventName, type EventName } from "../core/events.js";
import { sampleEvent } from "../services/sample-events.js";
import { verifyNodeRequest, SIGNATURE_HEADER } from "../core/signature.js";

const line = (w: WebhookRecord) =>
  `${w.id}  ${w.active ? "active  " : "inactive"}  ${w.url}  [${w.events.join(", ")}]${w.format === "service" ? "" : `  format=${w.format}`}${w.header_names.length ? `  headers: ${w.header_names.join(", ")}` : ""}`;

function parseHeaderFlags(values: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf("=");
    if (i <= 0) throw new UsageError(`--header takes name=value, got ${JSON.stringify(v.split("=")[0])}`);
    out[v.slice(0, i)] = v.slice(i + 1);
  }
  return out;
}

export function registerWebhooks(program: Command): void {
  const wh = program.command("webhooks").description("Manage, test and receive webhooks");

  wh.command("list")
    .description("List a workspace's webhooks (never secrets or header values)")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = await repo(svc.context, createWebhookRepo).list(ws.id);
        out.result(list, () => (list.length ? list.map(line) : "No webhooks"));
      });
    });

  wh.command("create")
    .description("Create a webhook; the secret is generated (see `svc webhooks secret`)")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .requiredOption("--url <url>", "https:// URL of the receiver")
    .requiredOption("--event <name...>", "event names (content.created, …, form.submitted)")
    .option("--format <format>", "service | code_host_repository_dispatch", "service")
    .option("--header <name=value...>", "custom header sent on every delivery (at most 10)")
    .option("--inactive", "create it switched off")
    .action(async (opts: { workspace: string; url: string; event: string[]; format: string; header?: string[]; inactive?: boolean }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const record = await repo(svc.context, createWebhookRepo).create(ws.id, {
          url: validateWebhookUrl(opts.url, { allowPrivate: svc.context.options.allowPrivateWebhookTargets }),
          events: validateEvents(opts.event),
          format: validateFormat(opts.format),
          headers: validateHeadersForCreate(parseHeaderFlags(opts.header)),
          active: !opts.inactive,
        });
        out.result(record, () => `Created webhook ${record.id}\n${line(record)}\nSecret: svc webhooks secret -w ${ws.slug} ${record.id}`);
      });
    });

  wh.command("test <id>")
    .description("Send one signed sample delivery through the real delivery path")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .option("--event <name>", "event to simulate", "content.updated")
    .option("--allow-private-webhook-targets", "allow a loopback/private receiver (development)")
    .action(async (id: string, opts: { workspace: string; event: string; allowPrivateWebhookTargets?: boolean }, cmd: Command) => {
      if (!isEventName(opts.event)) throw new UsageError(`--event must be one of the six event names, got ${opts.event}`);
      await withService(
        cmd,
        async (svc, out) => {
          const ws = await requireWorkspace(svc, opts.workspace);
          const target = await repo(svc.context, createWebhookRepo).target(ws.id, id);
          const result = await svc.context.webhooks.deliverNow(target, sampleEvent(ws.id, opts.event as EventName, Date.now()));
          const value = { status: result.status, ok: result.ok, duration_ms: result.durationMs, signature: result.signature, ...(result.error ? { error: result.error } : {}) };
          out.result(value, () => `${result.ok ? "✔" : "✖"} ${result.status ?? "no response"} in ${result.durationMs} ms${result.error ? ` (${result.error})` : ""}\n  ${SIGNATURE_HEADER}: ${result.signature}`);
          if (!result.ok) process.exitCode = 1;
        },
        opts.allowPrivateWebhookTargets ? { allowPrivateWebhookTargets: true } : {},
      );
    });

  wh.command("secret <id>")
    .description("Reveal a webhook's signing secret (local owner)")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (id: string, opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const { secret } = await repo(svc.context, createWebhookRepo).settings(ws.id, id);
        out.result({ id, secret }, () => secret);
      });
    });

  wh.command("listen")
    .description("Run a local receiver that verifies and prints each delivery")
    .requiredOption("--secret <secret>", "the webhook's secret")
    .option("--port <port>", "port", "8787")
    .option("--hostname <host>", "interface", "127.0.0.1")
    .option("--cert <file>", "TLS certificate (PEM) to serve HTTPS")
    .option("--key <file>", "TLS private key (PEM)")
    .option("--exit-on-bad-signature", "exit with code 1 at the first delivery whose signature does not verify")
    .action(async (opts: { secret: string; port: string; hostname: string; cert?: string; key?: string; exitOnBadSignature?: boolean }, cmd: Command) => {
      const out = createOutput(Boolean(cmd.optsWithGlobals<{ json?: boolean }>().json));
      if (Boolean(opts.cert) !== Boolean(opts.key)) throw new UsageError("--cert and --key go together");
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${opts.port}`);
      await listen({ ...opts, port, json: out.json });
    });
}

async function listen(opts: { secret: string; port: number; hostname: string; cert?: string; key?: string; exitOnBadSignature?: boolean; json: boolean }): Promise<void> {
  let exitCode = 0;
  let stop: () => void = () => {};
  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const result = await verifyNodeRequest(req, opts.secret);
    const at = new Date().toISOString();
    if (!result.ok) {
      res.writeHead(result.reason === "body_too_large" ? 413 : 401, { "content-type": "application/json" }).end(JSON.stringify({ error: result.reason }));
      if (opts.json) process.stdout.write(JSON.stringify({ at, verified: false, reason: result.reason }) + "\n");
      else consola.error(`${at} ${req.method} ${req.url}: signature ${result.reason.replace("_", " ")}`);
      if (opts.exitOnBadSignature) {
        exitCode = 1;
        stop();
      }
      return;
    }
    res.writeHead(204).end();
    let body: unknown = result.body;
    try {
      body = JSON.parse(result.body);
    } catch {}
    if (opts.json) process.stdout.write(JSON.stringify({ at, verified: true, body }) + "\n");
    else {
      const event = (body as { event?: string; event_type?: string })?.event ?? (body as { event_type?: string })?.event_type;
      consola.success(`${at} ${event ?? "delivery"} (signature verified)`);
      process.stdout.write(JSON.stringify(body, null, 2) + "\n");
    }
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => void onRequest(req, res).catch(() => res.writeHead(500).end());
  const server = opts.cert
    ? createHttpsServer({ cert: readFileSync(opts.cert), key: readFileSync(opts.key!) }, handler)
    : createHttpServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  if (!opts.json) consola.info(`Listening for deliveries on ${opts.cert ? "https" : "http"}://${opts.hostname}:${port}/ (Ctrl-C to stop)`);
  else process.stdout.write(JSON.stringify({ listening: `${opts.cert ? "https" : "http"}://${opts.hostname}:${port}/` }) + "\n");
  await new Promise<void>((resolve) => {
    stop = () => {
      server.close();
      server.closeAllConnections();
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  process.exitCode = exitCode;
}
