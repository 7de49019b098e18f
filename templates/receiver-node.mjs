// A contentsvc webhook receiver on plain node:http.
// Run: WEBHOOK_SECRET=whsec_… node receiver-node.mjs   (PORT defaults to 8787)
import { createServer } from "node:http";
import { verifyNodeRequest } from "contentsvc/signature";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error("Set WEBHOOK_SECRET to the webhook's secret (svc webhooks secret -w <workspace> <id>)");

// Deliveries may arrive twice and out of order (spec 6.6): remember what was handled and keep the
// newest state per entry by _updated_at. A real receiver keeps this in its database.
const seen = new Set();
const newest = new Map();

const server = createServer(async (req, res) => {
  // Verify over the raw bytes exactly as received; never re-serialize the JSON first.
  const result = await verifyNodeRequest(req, secret);
  if (!result.ok) {
    res.writeHead(401).end();
    return;
  }
  const { event, data } = JSON.parse(result.body);
  const id = data.entry?.id ?? data.submission?.id;
  const key = `${event}:${id}:${data.entry?._updated_at ?? ""}`;
  if (seen.has(key)) {
    res.writeHead(200).end("duplicate");
    return;
  }
  seen.add(key);
  if (data.entry) {
    const previous = newest.get(data.entry.id);
    if (!previous || previous._updated_at <= data.entry._updated_at) newest.set(data.entry.id, data.entry);
  }
  console.log(JSON.stringify({ event, id }));
  res.writeHead(204).end(); // any 2xx is success; answer fast, do slow work afterwards
});

server.listen(Number(process.env.PORT ?? 8787), "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`);
});
