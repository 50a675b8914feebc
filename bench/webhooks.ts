/**
 * Webhook delivery benchmark: signed deliveries per second to a local receiver, and the delay
 * from commit (event emitted in a transaction) to the receiver seeing the first attempt.
 * Runs on a file database in a temp dir with the real scheduler and SystemClock, with group commit
 * on as under `serve` (src/main.ts; `COFRE_GROUP_COMMIT=0` measures without it).
 * Usage: `bun bench/webhooks.ts [burst=4000] [paced=300]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDeps } from "../src/deps";
import { enableGroupCommit, flushGroupCommit } from "../src/store/sqlite/group-commit";
import { emitCanonical } from "../src/domain/events/emit";
import { createEndpoint } from "../src/domain/webhooks/service";
import { sqliteDbOf } from "../src/store/sqlite";

const BURST = Number(process.argv[2] ?? 4000);
const PACED = Number(process.argv[3] ?? 300);
const dir = mkdtempSync(join(tmpdir(), "cofre-bench-wh-"));
const received = new Map<string, number>();
let expected = 0;
let done: (() => void) | null = null;

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: async (req) => {
    const body = (await req.json()) as { id: string };
    if (!received.has(body.id)) received.set(body.id, performance.now());
    if (received.size >= expected && done) done();
    return new Response("ok");
  },
});

const deps = createDeps({ dataDir: dir, config: { logLevel: "silent", webhookAllowPrivate: true } }); // the receiver is on 127.0.0.1
if (process.env.COFRE_GROUP_COMMIT !== "0") enableGroupCommit(sqliteDbOf(deps.store).$client);
const scope = { accountId: "acct_bench", livemode: false };
await createEndpoint(deps, scope, { url: `http://127.0.0.1:${server.port}/hook`, events: ["charge.paid"] });
const charge = {
  id: "ch_bench",
  object: "charge",
  amount: 1500,
  currency: "BRL",
  status: "paid",
  payment_method: "pix",
};

function waitAll(n: number): Promise<void> {
  expected = n;
  return new Promise((r) => {
    done = r;
    if (received.size >= n) r();
  });
}

// 1. Delivery only: BURST events committed while the worker is stopped, then the worker drains them.
for (let i = 0; i < BURST; i++) await deps.store.tx((uow) => emitCanonical(deps, uow, scope, "charge.paid", charge));
let t0 = performance.now();
const drained = waitAll(BURST);
deps.jobs.start();
await drained;
const deliverSeconds = (performance.now() - t0) / 1000;

// 2. Commit and deliver together: BURST events committed (one transaction each) while the worker runs.
received.clear();
t0 = performance.now();
const all = waitAll(BURST);
for (let i = 0; i < BURST; i++) {
  await deps.store.tx((uow) => emitCanonical(deps, uow, scope, "charge.paid", charge));
  if (i % 100 === 99) await Bun.sleep(0);
}
await all;
const burstSeconds = (performance.now() - t0) / 1000;

// 3. Paced: one event every 5 ms; delay from commit to the receiver seeing it.
received.clear();
const committed = new Map<string, number>();
const pacedDone = waitAll(PACED);
for (let i = 0; i < PACED; i++) {
  const id = await deps.store.tx((uow) => emitCanonical(deps, uow, scope, "charge.paid", charge));
  committed.set(id, performance.now());
  await Bun.sleep(5);
}
await pacedDone;
const delays = [...committed].map(([id, at]) => received.get(id)! - at).sort((a, b) => a - b);
const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))]!.toFixed(1);

await deps.jobs.stop();
server.stop(true);
flushGroupCommit(sqliteDbOf(deps.store).$client);
sqliteDbOf(deps.store).$client.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    group_commit: process.env.COFRE_GROUP_COMMIT !== "0",
    burst_deliveries: BURST,
    deliveries_per_second: Math.round(BURST / deliverSeconds),
    commit_and_deliver_per_second: Math.round(BURST / burstSeconds),
    paced_deliveries: PACED,
    commit_to_first_attempt_ms: { p50: Number(pct(0.5)), p90: Number(pct(0.9)), p99: Number(pct(0.99)) },
  }),
);
