/**
 * `bun run listen`: a webhook receiver for a laptop (README "Your first charge"). Registers an
 * endpoint on a running Cofre for every event of the catalog, pointing at itself, then prints
 * each delivery it receives with its signature checked by the `standardwebhooks` library.
 *
 * Environment: `COFRE_API_KEY` (required, an `ak_test_` key), `COFRE_URL` (default
 * `http://localhost:3000`), `LISTEN_PORT` (default 4242). Cofre must allow private targets
 * (`COFRE_WEBHOOK_ALLOW_PRIVATE=1`, which `bun run dev` sets), since the receiver is on
 * 127.0.0.1 (extensions.md "Webhook targets and private addresses"). Ctrl-C removes nothing: the
 * endpoint stays registered until deleted (`DELETE /v1/webhooks/endpoints/{id}`).
 */
import { Webhook } from "standardwebhooks";

const key = process.env.COFRE_API_KEY;
const base = (process.env.COFRE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const port = Number(process.env.LISTEN_PORT ?? 4242);
if (!key) {
  console.error("listen: set COFRE_API_KEY to a test key (ak_test_...), e.g. the test_api_key printed by `cofre init --test-key`.");
  process.exit(2);
}

// GET /v1/webhooks/event-catalog answers a bare array of `{event, description, legacy?}`.
const catalog = (await (await fetch(`${base}/v1/webhooks/event-catalog`)).json()) as { event: string }[];
const events = catalog.map((e) => e.event);

const server = Bun.serve({
  port,
  hostname: "127.0.0.1",
  async fetch(req) {
    const body = await req.text();
    let verdict = "signature NOT valid";
    try {
      verifier.verify(body, Object.fromEntries(req.headers));
      verdict = "signature ok (standardwebhooks)";
    } catch {}
    console.log(`\n<- ${req.headers.get("x-cofre-event-type")}  ${req.headers.get("x-cofre-delivery-id")}  ${verdict}`);
    console.log(`   X-Cofre-Signature: ${req.headers.get("x-cofre-signature")}`);
    console.log(`   ${body}`);
    return new Response("ok");
  },
});

const res = await fetch(`${base}/v1/webhooks/endpoints`, {
  method: "POST",
  headers: { apikey: key, "content-type": "application/json" },
  body: JSON.stringify({ url: `http://127.0.0.1:${server.port}/hook`, events }),
});
const endpoint = (await res.json()) as { id?: string; secret?: string; error?: { message: string } };
if (res.status !== 201 || !endpoint.secret) {
  console.error(`listen: registering the endpoint failed (${res.status}): ${endpoint.error?.message ?? JSON.stringify(endpoint)}`);
  server.stop(true);
  process.exit(1);
}
// extensions.md "Name and headers": the HMAC key is the UTF-8 bytes of the hex secret.
const verifier = new Webhook(Buffer.from(endpoint.secret, "utf8").toString("base64"));
console.log(`listening on http://127.0.0.1:${server.port}/hook as endpoint ${endpoint.id} (${events.length} event types); waiting for deliveries...`);
