/**
 * A deploy whose body arrives in two parts (chunked): the first at once, the rest when the test
 * says so, so a test can see what the server does while a body is still arriving.
 */
import { request, type IncomingHttpHeaders } from "node:http";

export interface OpenUpload {
  /** The answer; may come before the body is finished. */
  response: Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>;
  /** Sends `rest` (if any) and ends the body. */
  finish(rest?: Uint8Array): void;
}

/** POSTs a deploy to `host` on `port`, sending `first` now and holding the body open. */
export function openUpload(port: number, host: string, token: string, first: Uint8Array): OpenUpload {
  const req = request({
    host: "127.0.0.1",
    port,
    path: "/api/dashboard/site/deploys",
    method: "POST",
    setHost: false,
    headers: { host, authorization: `Bearer ${token}`, "content-type": "application/x-tar", "transfer-encoding": "chunked" },
  });
  const response = new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
  req.write(first);
  return {
    response,
    finish(rest) {
      if (req.destroyed) return;
      if (rest) req.write(rest);
      req.end();
    },
  };
}
