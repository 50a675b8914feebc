/**
 * `bun run listen`: the README's "Your first charge" receiver. Starts a small webhook receiver on
 * 127.0.0.1 (`LISTEN_PORT`, default 4242) that prints each event it gets with its signature checked
 * by the `standardwebhooks` library, and `cofre listen --forward-to` it (src/cli/listen.ts): the
 * events are read from the events API of a running Cofre, so no endpoint is registered and Cofre
 * needs no private-address switch.
 *
 * Environment: `COFRE_API_KEY` (required, an `ak_test_` key), `COFRE_URL` (default
 * `http://localhost:3000`), `LISTEN_PORT`, `COFRE_LISTEN_STATE` (the listener's secret and resume
 * point; default `~/.config/cofre/listen.json`). Ctrl-C stops both; started again, the listener
 * forwards what happened meanwhile.
 */
import { Webhook } from "standardwebhooks";
import { defaultStatePath, listenSecret, startListener } from "../src/cli/listen";

const key = process.env.COFRE_API_KEY;
const base = (process.env.COFRE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const port = Number(process.env.LISTEN_PORT ?? 4242);
if (!key) {
  console.error(
    "listen: set COFRE_API_KEY to a test key (ak_test_...), e.g. the test_api_key printed by `cofre init --test-key`.",
  );
  process.exit(2);
}

const statePath = defaultStatePath();
// The listener's secret, as `cofre listen` prints it: what your app gives `new Webhook(...)`.
const verifier = new Webhook(listenSecret(statePath));

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

const listener = startListener({
  forwardTo: `http://127.0.0.1:${server.port}/hook`,
  apiKey: key,
  apiUrl: base,
  statePath,
  out: () => {},
});
await listener.ready;
console.log(
  `listening on http://127.0.0.1:${server.port}/hook: cofre listen forwards the events of ${base} here; waiting for events...`,
);
for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.once(sig, () => {
    void listener.stop().then(() => {
      server.stop(true);
      process.exit(0);
    });
  });
const code = await listener.done;
server.stop(true);
process.exit(code);
