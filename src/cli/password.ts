/**
 * A password given on standard input (`--password-stdin`) instead of the command line, where it
 * would stay in the shell's history and be visible in the process list. Read to the end of input,
 * one trailing newline dropped (as `docker login --password-stdin` does); at a terminal it is
 * asked for without echo.
 */
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { UsageError } from "./errors.js";

export const PASSWORD_STDIN_OPTION = [
  "--password-stdin",
  "read the password from standard input, e.g. printf %s \"$PASSWORD\" | svc …, instead of --password, which shell history and the process list keep (one trailing newline dropped; at a terminal, asked for without echo)",
] as const;

/**
 * The password of `--password <p>` or `--password-stdin`; undefined when neither was given and it
 * is optional. Both at once, or an empty one on stdin, is a usage error.
 */
export async function passwordFromFlags(opts: { password?: string; passwordStdin?: boolean }, required: boolean): Promise<string | undefined> {
  if (opts.password !== undefined && opts.passwordStdin) throw new UsageError("Give --password or --password-stdin, not both");
  if (!opts.passwordStdin) {
    if (required && opts.password === undefined) throw new UsageError("A password is required: --password-stdin (read from standard input) or --password <password>");
    return opts.password;
  }
  const password = process.stdin.isTTY ? await askWithoutEcho("Password: ") : (await readAll(process.stdin)).replace(/\r?\n$/, "");
  if (password === "") throw new UsageError("--password-stdin: standard input held no password");
  return password;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString("utf8");
}

/** One line from the terminal; what is typed is not echoed (the prompt goes to stderr). */
function askWithoutEcho(prompt: string): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  // Only now, with the terminal in raw mode: what is typed after the prompt is never echoed.
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.once("line", (line) => {
      answered = true;
      rl.close();
      process.stderr.write("\n");
      resolve(line);
    });
    // Ctrl-C (raw mode delivers it to readline, not as a signal) and Ctrl-D end the prompt with a
    // usage error, not a promise left pending (Node would exit 13 on it).
    rl.once("SIGINT", () => rl.close());
    rl.once("close", () => {
      if (answered) return;
      process.stderr.write("\n");
      reject(new UsageError("No password given"));
    });
  });
}
