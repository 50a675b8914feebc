/**
 * Provider callback flood (issue 30 §1): what forged PSP callbacks cost the rest of the service.
 * `cofre psp-sim` and `cofre serve` (from source: `bun src/main.ts`, so the working tree is what
 * is measured) on 127.0.0.1, one account with a live Pix provider connection and 20 open live
 * charges. Two phases of `seconds` each:
 *   - idle: `GET /v1/ping` (test key) one at a time, back to back;
 *   - flood: the same ping loop while `workers` clients each post, back to back, a callback of
 *     `entries` forged entries (random txids and end-to-end ids, one entry in 50 naming a real
 *     open charge) to `POST /v1/provider-webhooks/pix/{connection_id}/pix`.
 * The flooders run in a child process of their own (bodies built before the clock starts), so the
 * ping loop's latency is the server's, not the load generator's.
 * Prints ping p50/p99 of both phases, callbacks/s and the callback answers by status.
 * Usage: `bun bench/callback-flood.ts [entries=1000] [workers=8] [seconds=10]`; `BENCH_TREE=dir`
 * serves another source tree (e.g. `git archive HEAD` unpacked, node_modules linked) for a before/after.
 * Noisy box: compare runs of the same moment (docs/performance.md "Provider callback flood").
 */
import { join } from "node:path";
import { api, cliInit, CofreServer } from "./lib/server";
import { percentile, SimProcess } from "./lib/psp-sim";

const ENTRIES = Number(process.argv[2] ?? 1000);
const WORKERS = Number(process.argv[3] ?? 8);
const SECONDS = Number(process.argv[4] ?? 10);
const OPERATOR = "bench_flood_operator_0123456789";
const SRC = ["bun", join(process.env.BENCH_TREE ?? ".", "src/main.ts")];

const rand = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
const e2e = () => `E12345678${new Date().toISOString().slice(0, 16).replace(/\D/g, "")}${rand(11)}`;
if (process.argv[2] === "--flood") await floodChild();

const sim = new SimProcess({ cmd: SRC });
const cofre = new CofreServer({ cmd: SRC, env: { COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn" } });

async function pingLoop(key: string, until: number): Promise<number[]> {
  const xs: number[] = [];
  while (performance.now() < until) {
    const t = performance.now();
    const r = await fetch(`${cofre.base}/v1/ping`, { headers: { apikey: key } });
    await r.arrayBuffer();
    if (r.status === 200) xs.push(performance.now() - t);
  }
  return xs;
}

try {
  await sim.init();
  const accountId = await cliInit(cofre, "flood@example.com", "flood bench password 1", "Loja Flood");
  await Promise.all([sim.start(), cofre.start(30_000)]);
  const login = await api(cofre.base, "POST", "/v1/auth/login", {
    body: { email: "flood@example.com", password: "flood bench password 1" },
  });
  const issue = async (test: boolean) =>
    (await api(cofre.base, "POST", "/v1/api-keys", { bearer: login.body.access_token, body: { label: "bench", test } }))
      .body.apiKey as string;
  const liveKey = await issue(false);
  const testKey = await issue(true);
  const conn = await api(cofre.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, {
    bearer: OPERATOR,
    body: sim.body,
  });
  if (conn.status !== 200) throw new Error(`connect: ${conn.status} ${JSON.stringify(conn.body)}`);
  const txids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await api(cofre.base, "POST", "/v1/pix/charges", {
      key: liveKey,
      body: { amount: 1990 + i, description: "flood" },
      headers: { "idempotency-key": `flood-bench-${i}` },
    });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
    txids.push(r.body.pix.txid);
  }
  const url = `${cofre.base}/v1/provider-webhooks/pix/${conn.body.id}/pix`;

  // Warm-up (unmeasured).
  await pingLoop(testKey, performance.now() + 1000);
  const idle = await pingLoop(testKey, performance.now() + SECONDS * 1000);

  const child = Bun.spawn(
    ["bun", import.meta.path, "--flood", url, String(ENTRIES), String(WORKERS), String(SECONDS), txids.join(",")],
    { stdout: "pipe", stderr: "inherit" },
  );
  // The child prints "go" once its bodies are built, then floods for SECONDS.
  const reader = child.stdout.getReader();
  let out = "";
  while (!out.includes("go\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("flood child ended early");
    out += new TextDecoder().decode(value);
  }
  const flood = await pingLoop(testKey, performance.now() + SECONDS * 1000);
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  await child.exited;
  const { statuses, posted } = JSON.parse(out.slice(out.indexOf("go\n") + 3)) as {
    statuses: Record<number, number>;
    posted: number;
  };
  const fig = (xs: number[]) => ({ p50Ms: percentile(xs, 0.5), p99Ms: percentile(xs, 0.99), samples: xs.length });
  const result = {
    entries: ENTRIES,
    workers: WORKERS,
    seconds: SECONDS,
    idlePing: fig(idle),
    floodPing: fig(flood),
    p99Ratio: Math.round((percentile(flood, 0.99) / percentile(idle, 0.99)) * 100) / 100,
    callbacksPerSecond: Math.round(posted / SECONDS),
    callbackStatuses: statuses,
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await cofre.kill("SIGTERM");
  await sim.kill();
  cofre.removeData();
}

/** The flooders (child process): `--flood url entries workers seconds txids`; prints "go", then the counts as JSON. */
async function floodChild(): Promise<never> {
  const [, , , url, entries, workers, seconds, txidList] = process.argv as string[];
  const txids = txidList!.split(",");
  const bodies = Array.from({ length: 32 }, () =>
    JSON.stringify({
      pix: Array.from({ length: Number(entries) }, (_, i) => ({
        endToEndId: e2e(),
        txid: i % 50 === 0 ? txids[(i / 50) % txids.length] : `forged${rand(26)}`,
        valor: "19.90",
        horario: new Date().toISOString(),
      })),
    }),
  );
  const statuses: Record<number, number> = {};
  let posted = 0;
  process.stdout.write("go\n");
  const until = performance.now() + Number(seconds) * 1000;
  await Promise.all(
    Array.from({ length: Number(workers) }, async () => {
      while (performance.now() < until) {
        const r = await fetch(url!, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: bodies[posted % bodies.length],
        });
        await r.arrayBuffer();
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        posted++;
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ statuses, posted })}\n`);
  process.exit(0);
}
