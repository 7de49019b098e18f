/**
 * The default interface, 127.0.0.1, answers on the IPv6 loopback too: `localhost` resolves to ::1
 * first on many systems, and the demo workspace answers `[::1]`, so `curl http://[::1]:3000` must
 * reach the server the banner printed. A second listener on [::1] at the same port hands each
 * connection to the one server (plain HTTP or TLS alike); without IPv6 it is left out, and the
 * banner says only what listens.
 */
import { createServer, type Server as NetServer } from "node:net";
import type { Server } from "node:http";
import { consola } from "consola";

/** The interface whose server also listens on [::1]. */
export const DEFAULT_LOOPBACK = "127.0.0.1";

/**
 * Listens on [::1] at `port` for `server` when `hostname` is the default loopback. Resolves with the
 * extra listener (close it with the server), or undefined when there is none: another interface,
 * no IPv6 on this machine, or the port taken on ::1 by another program (a warning says so).
 */
export async function listenIpv6Loopback(server: Server, hostname: string, port: number): Promise<NetServer | undefined> {
  if (hostname !== DEFAULT_LOOPBACK) return undefined;
  const companion = createServer((socket) => server.emit("connection", socket));
  try {
    await new Promise<void>((resolve, reject) => {
      companion.once("error", reject);
      companion.listen(port, "::1", () => resolve());
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") consola.warn(`Port ${port} is in use on [::1] by another program: listening on 127.0.0.1 only`);
    else if (code !== "EADDRNOTAVAIL" && code !== "EAFNOSUPPORT") consola.warn(`Not listening on [::1]: ${(error as Error).message}`);
    return undefined;
  }
  server.once("close", () => companion.close());
  return companion;
}
