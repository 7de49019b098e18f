/**
 * Entry of every bench child process: `node bench/lib/child.mjs <kind>` with its configuration in
 * BENCH_CHILD_CONFIG. The kind module returns `{info, commands, close}`; the parent calls commands
 * over IPC (`{id, cmd, args}` → `{id, result | error}`), and `exit` closes and exits normally so
 * that `--cpu-prof` writes its profile.
 */
const KINDS = {
  reference: () => import("./reference-app.mjs"),
  naive: () => import("./naive-app.mjs"),
  service: () => import("./service-server.mjs"),
  receiver: () => import("./receiver.mjs"),
  dispatcher: () => import("./dispatcher-child.mjs"),
};

const kind = process.argv[2];
const config = JSON.parse(process.env.BENCH_CHILD_CONFIG ?? "{}");

try {
  const load = KINDS[kind];
  if (!load) throw new Error(`unknown child kind ${kind}`);
  const { start } = await load();
  const child = await start(config);
  process.on("message", async (msg) => {
    if (msg?.cmd === "exit") {
      await Promise.resolve(child.close?.()).catch(() => {});
      process.exit(0);
    }
    const fn = child.commands?.[msg?.cmd];
    try {
      if (!fn) throw new Error(`unknown command ${msg?.cmd}`);
      process.send({ id: msg.id, result: await fn(msg.args ?? {}) });
    } catch (error) {
      process.send({ id: msg.id, error: error?.stack ?? String(error) });
    }
  });
  process.send({ ready: child.info ?? {} });
} catch (error) {
  process.send?.({ failed: error?.stack ?? String(error) });
  process.exit(1);
}
