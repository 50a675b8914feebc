/**
 * Statement bench (issue 27 §5): `bun bench/statement.ts [lines=100000] [rounds=200]`.
 *
 * A fresh data dir (SQLite, the default store), one account from `cofre init`, its sandbox wallet
 * given `lines / 2` paid charges with a fee (two statement lines each, plus the tranche release
 * entry each that the statement skips: settlement delay 0), posted through the ledger's own entry
 * point in units of 1,000 by this process before the server starts. Then `bun src/main.ts serve`
 * (from source, so the bench needs no rebuild) and, one request at a time from this process:
 *   1. the whole history as CSV (`Accept: text/csv`: `lines` lines) read as a stream and thrown
 *      away, three times: time, bytes; then the same as OFX, once. The server's peak RSS
 *      (VmHWM) right after start and login and after the exports, and its RSS (VmRSS) sampled
 *      every 20 ms during them: a streamed export (one page of 500 entries at a time) should
 *      add little whatever its size;
 *   2. `GET /v1/wallets/statement?limit=100` (the newest page), `rounds` times: p50/p99 ms;
 *   3. the same 100-line page half-way down the history (`starting_after` = a line in the
 *      middle, the worst place: `balance_after` is summed over half the history), `rounds / 4` times.
 * CPU is shared: run it once, and read the figures as an order of magnitude.
 */
import { createDeps } from "../src/deps";
import { creditChargePayment } from "../src/domain/ledger";
import { rawId } from "../src/lib/ids";
import { percentile } from "./lib/psp-sim";
import { CofreServer, cliInit, loginAndKey } from "./lib/server";

const LINES = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 200);
const EMAIL = "bench-statement@example.com";
const PASSWORD = "bench statement password 1";

const server = new CofreServer({ cmd: ["bun", "src/main.ts"] });
const accountId = await cliInit(server, EMAIL, PASSWORD, "Bench Extrato");

// Seed in this process (the server is not running yet): the real posting of a paid charge.
const seedStart = performance.now();
const deps = createDeps({ dataDir: server.dataDir, config: { logLevel: "warn" } });
await deps.store.tx((uow) => uow.accounts.updateSettings(accountId, { settlementDelaySeconds: 0 }));
const charges = Math.ceil(LINES / 2);
for (let done = 0; done < charges; ) {
  const n = Math.min(1_000, charges - done);
  await deps.store.tx(async (uow) => {
    for (let i = 0; i < n; i++)
      await creditChargePayment(deps, uow, {
        accountId,
        livemode: false,
        currency: "BRL",
        amount: 1_000 + ((done + i) % 9_000),
        fee: 99,
        transactionId: rawId(),
      });
  });
  done += n;
}
await deps.store.close();
const seedMs = performance.now() - seedStart;

await server.start();
try {
  const { testKey } = await loginAndKey(server.base, EMAIL, PASSWORD);
  /** The server's current resident set size in KiB (VmRSS), or null. */
  const currentRssKiB = async (): Promise<number | null> => {
    const status = await Bun.file(`/proc/${server.proc!.pid}/status`)
      .text()
      .catch(() => "");
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) : null;
  };
  const get = (path: string, accept = "application/json") =>
    fetch(`${server.base}${path}`, { headers: { apikey: testKey, accept } });

  /** `rounds` sequential requests of `path` (after 10 unmeasured): p50 and p99 in ms. */
  async function timed(path: string, rounds: number): Promise<{ p50: number; p99: number; lines: number }> {
    let lines = 0;
    for (let i = 0; i < 10; i++) await (await get(path)).arrayBuffer();
    const ms: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      const r = await get(path);
      const body = (await r.json()) as { data: unknown[] };
      ms.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      lines = body.data.length;
    }
    return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), lines };
  }

  /** One export read as a stream and discarded: ms, bytes, lines (CRLF-terminated rows). */
  async function exported(accept: string): Promise<{ ms: number; bytes: number; newlines: number }> {
    const t0 = performance.now();
    const r = await get("/v1/wallets/statement", accept);
    if (r.status !== 200) throw new Error(`export ${accept}: ${r.status}`);
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of r.body!) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
    }
    return { ms: performance.now() - t0, bytes, newlines };
  }

  // Exports first, so the peak (VmHWM) they leave is theirs and not the JSON pages'.
  const rssBefore = await server.peakRssKiB();
  const rssNowBefore = await currentRssKiB();
  let rssMaxDuring = 0;
  const sampler = setInterval(
    () => void currentRssKiB().then((k) => (rssMaxDuring = Math.max(rssMaxDuring, k ?? 0))),
    20,
  );
  const csv = [];
  for (let i = 0; i < 3; i++) csv.push(await exported("text/csv"));
  const rssAfterCsv = await server.peakRssKiB();
  const ofx = await exported("application/x-ofx");
  const rssAfterOfx = await server.peakRssKiB();
  clearInterval(sampler);

  const newest = await timed("/v1/wallets/statement?limit=100", ROUNDS);
  // A line half-way down: follow cursors by pages of 100 until the middle.
  let cursor = "";
  for (let seen = 0; seen < LINES / 2; seen += 100) {
    const page = (await (
      await get(`/v1/wallets/statement?limit=100${cursor ? `&starting_after=${cursor}` : ""}`)
    ).json()) as { next_cursor: string };
    cursor = page.next_cursor;
  }
  const middle = await timed(`/v1/wallets/statement?limit=100&starting_after=${cursor}`, Math.max(10, ROUNDS / 4));

  const mib = (kib: number | null) => (kib === null ? "n/a" : `${(kib / 1024).toFixed(0)} MiB`);
  console.log(
    `statement bench: ${charges} paid charges with a fee (${charges * 2} lines), seeded in ${(seedMs / 1000).toFixed(1)} s; SQLite; bun src/main.ts serve`,
  );
  console.log(
    `  page of ${newest.lines} lines, newest:       p50 ${newest.p50.toFixed(2)} ms, p99 ${newest.p99.toFixed(2)} ms (${ROUNDS} requests)`,
  );
  console.log(
    `  page of ${middle.lines} lines, half-way down: p50 ${middle.p50.toFixed(2)} ms, p99 ${middle.p99.toFixed(2)} ms`,
  );
  for (const [i, c] of csv.entries())
    console.log(
      `  CSV export #${i + 1}: ${c.newlines - 1} lines, ${(c.bytes / 1048576).toFixed(1)} MiB in ${(c.ms / 1000).toFixed(2)} s (${Math.round((c.newlines - 1) / (c.ms / 1000))} lines/s)`,
    );
  console.log(`  OFX export: ${(ofx.bytes / 1048576).toFixed(1)} MiB in ${(ofx.ms / 1000).toFixed(2)} s`);
  console.log(
    `  server peak RSS (VmHWM): ${mib(rssBefore)} started and logged in, ${mib(rssAfterCsv)} after 3 CSV, ${mib(rssAfterOfx)} after the OFX`,
  );
  console.log(
    `  server RSS (VmRSS) sampled every 20 ms: ${mib(rssNowBefore)} before the exports, at most ${mib(rssMaxDuring)} during them`,
  );
  const csvBytes = csv[0]!.bytes;
  if (rssBefore !== null && rssAfterOfx !== null)
    console.log(
      `  growth over the exports: ${((rssAfterOfx - rssBefore) / 1024).toFixed(1)} MiB for a ${(csvBytes / 1048576).toFixed(1)} MiB CSV (${(ofx.bytes / 1048576).toFixed(1)} MiB OFX)`,
    );
} finally {
  await server.kill("SIGTERM");
  server.removeData();
}
