/**
 * A deploy sent from a separate process, so that the test process (where the server runs) spends
 * no time on the client's side of a large upload and any stall it sees is the server's.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CLIENT = `
const http = require("node:http");
const body = require("node:fs").readFileSync(process.env.ARCHIVE);
const req = http.request({ host: "127.0.0.1", port: Number(process.env.PORT), path: "/api/dashboard/site/deploys", method: "POST",
  headers: { host: "demo.localhost", authorization: "Bearer " + process.env.TOKEN, "content-type": "application/gzip", "content-length": body.length } },
  (res) => { let text = ""; res.on("data", (c) => (text += c)); res.on("end", () => process.stdout.write(JSON.stringify({ status: res.statusCode, body: text }))); });
req.on("error", (e) => { console.error(e); process.exit(1); });
req.end(body);
`;

/** POSTs `archive` as a deploy to demo.localhost on `port` from a child process. */
export async function uploadFromChild(port: number, token: string, archive: Uint8Array): Promise<{ status: number; body: string }> {
  const dir = mkdtempSync(join(tmpdir(), "svc-upload-"));
  try {
    const file = join(dir, "site.tgz");
    writeFileSync(file, archive);
    const child = spawn(process.execPath, ["-e", CLIENT], { env: { ...process.env, ARCHIVE: file, PORT: String(port), TOKEN: token }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`upload process exited with ${code}`);
    return JSON.parse(out) as { status: number; body: string };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
