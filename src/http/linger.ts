/**
 * Lingering close for a refusal sent before the request body was read (the `Connection: close` of
 * bodyLeftUnread), as Apache and nginx do. Node closes such a socket as soon as the response is
 * written; the client, still sending its body, then writes into a closed socket and gets a reset
 * (EPIPE, ECONNRESET), and its kernel may drop the refusal it had not yet read. So the server
 * half-closes after the response and reads on, discarding, until the client ends its side, for at
 * most LINGER_MS: the client reads the 413 (or 401, 415) instead of an error.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Longest time a refused socket is kept open to read (and discard) the rest of the body. */
export const LINGER_MS = 5_000;

const lingering = new WeakSet<Socket>();

/**
 * Makes the server's close of the response's socket (after a `Connection: close` response) a
 * lingering one. Node's HTTP server closes with `socket.destroySoon()` once the response is
 * finished: this replaces it on this one socket. Off Node's HTTP/1 server (no `node`, HTTP/2),
 * nothing to do.
 */
export function lingerOnClose(node: { req: unknown; res?: unknown } | undefined): void {
  const { req, res } = node ?? {};
  if (!(req instanceof IncomingMessage) || !(res instanceof ServerResponse)) return;
  const socket = res.socket;
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = function lingeringClose(this: Socket) {
    // FIN after the response; the socket closes itself once the client has ended its side too.
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    // A reader that gave up (raw-body) paused the request: let the rest flow, to be discarded.
    if (!req.destroyed) req.resume();
  };
}
