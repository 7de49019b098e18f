/**
 * `svc webhooks listen`: a local receiver that verifies and prints each delivery. Deliveries only
 * go to https://, so it serves HTTPS by default with the data directory's local certificate
 * (local-tls.ts) and prints the URL to register and the CA file the sending process must trust.
 */
import type { Command } from "commander";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { readFileSync } from "node:fs";
import { consola } from "consola";
import { commandConfig } from "../context.js";
import { UsageError } from "../errors.js";
import { clientHost } from "../banner.js";
import { verifyNodeRequest } from "../../core/signature.js";

interface ListenFlags {
  secret: string;
  port: string;
  hostname: string;
  cert?: string;
  key?: string;
  http?: boolean;
  exitOnBadSignature?: boolean;
}

interface Tls {
  cert: string | Buffer;
  key: string | Buffer;
  /** The CA to trust, when the certificate is the generated one. */
  caFile?: string;
}

export function registerListen(wh: Command): void {
  wh.command("listen")
    .description("Run a local HTTPS receiver that verifies and prints each delivery; prints the URL to register and the CA the sender must trust")
    .requiredOption("--secret <secret>", "the webhook's secret")
    .option("--port <port>", "port", "8787")
    .option("--hostname <host>", "interface", "127.0.0.1")
    .option("--cert <file>", "your own TLS certificate (PEM), instead of the local one generated into the data directory (webhooks-tls/)")
    .option("--key <file>", "its private key (PEM)")
    .option("--http", "serve plain HTTP (behind a proxy that terminates TLS); deliveries only go to https://")
    .option("--exit-on-bad-signature", "exit with code 1 at the first delivery whose signature does not verify")
    .action(async (opts: ListenFlags, cmd: Command) => {
      const { config, out } = await commandConfig(cmd);
      if (Boolean(opts.cert) !== Boolean(opts.key)) throw new UsageError("--cert and --key go together");
      if (opts.http && opts.cert) throw new UsageError("--http serves plain HTTP: leave out --cert and --key");
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got ${opts.port}`);
      let tls: Tls | undefined;
      if (opts.cert) tls = { cert: readFileSync(opts.cert), key: readFileSync(opts.key!) };
      else if (!opts.http) tls = await (await import("../local-tls.js")).localTls(config.data);
      await listen({ ...opts, port, tls, json: out.json });
    });
}

async function listen(opts: { secret: string; port: number; hostname: string; tls?: Tls; exitOnBadSignature?: boolean; json: boolean }): Promise<void> {
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
  const server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  announce(`${opts.tls ? "https" : "http"}://${clientHost(opts.hostname)}:${port}/`, opts.tls?.caFile, opts.json);
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

/** The URL to register and, for the generated certificate, the CA the sending process must trust. */
function announce(url: string, caFile: string | undefined, json: boolean): void {
  const trust = caFile && `NODE_EXTRA_CA_CERTS=${caFile}`;
  if (json) {
    process.stdout.write(JSON.stringify({ listening: url, ...(caFile && { ca: caFile }) }) + "\n");
    return;
  }
  consola.info(`Listening for deliveries on ${url} (Ctrl-C to stop)`);
  const lines = [`  register   svc webhooks create -w <workspace> --url ${url} --event <event> --allow-private-webhook-targets`];
  if (trust) {
    lines.push(
      `  CA         ${caFile} (generated for this data directory, reused on every run)`,
      `  sender     ${trust} npx svc serve --allow-private-webhook-targets`,
      `             (the same ${trust} for any svc command that writes and so delivers, and for svc webhooks test)`,
    );
  } else if (url.startsWith("http:")) {
    lines.push("  plain HTTP: deliveries only go to https://, so put a TLS-terminating proxy in front");
  }
  consola.log(lines.join("\n"));
}
