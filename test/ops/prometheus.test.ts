/**
 * A real Prometheus scrapes Cofre (issue 28 §2): the Debian `prometheus` on loopback, with a
 * scrape configuration pointing at a running Cofre's GET /metrics (bearer token, every second),
 * while a small load of charges, payments and webhook deliveries runs; then its HTTP API answers
 * the request rate, the webhook lag and the PSP latency queries docs/operations.md uses.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness } from "../support/harness";
import { deterministic, register, startReceiver } from "../webhooks/support";

const PROMETHEUS =
  ["/usr/bin/prometheus", "/usr/local/bin/prometheus"].find((p) => existsSync(p)) ?? Bun.which("prometheus");
const TOKEN = "prometheus-scrape-token";
const dir = mkdtempSync(join(tmpdir(), "cofre-prometheus-"));
const stops: (() => unknown)[] = [];
afterAll(async () => {
  while (stops.length) await stops.pop()!();
  rmSync(dir, { recursive: true, force: true });
});

/** A free loopback port (bound, then released). */
function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

describe("Prometheus scraping Cofre", () => {
  test.skipIf(!PROMETHEUS)(
    "answers request rate, webhook lag and PSP latency queries for a loaded Cofre",
    async () => {
      const h = createHarness({ metricsToken: TOKEN, webhookAllowPrivate: true });
      deterministic(h);
      const a = await h.seedAccount();
      const cofre = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req) });
      stops.push(() => cofre.stop(true));
      const rx = startReceiver();
      stops.push(() => rx.stop());
      await register(h, a.testKey, rx.url, ["charge.created", "charge.paid"]);

      const promPort = freePort();
      writeFileSync(
        join(dir, "prometheus.yml"),
        `global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: cofre
    metrics_path: /metrics
    authorization:
      type: Bearer
      credentials: ${TOKEN}
    static_configs:
      - targets: ["127.0.0.1:${cofre.port}"]
`,
      );
      const prom = Bun.spawn(
        [
          PROMETHEUS!,
          `--config.file=${join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${join(dir, "tsdb")}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
          "--log.level=warn",
        ],
        { stdout: "ignore", stderr: "pipe" },
      );
      stops.push(async () => {
        prom.kill();
        await prom.exited;
      });
      const query = async (q: string) => {
        const res = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(q)}`).catch(
          () => null,
        );
        if (!res?.ok) return [];
        const body = (await res.json()) as {
          data: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        return body.data.result;
      };

      // A small load while Prometheus scrapes every second: creates, reads, payments, deliveries.
      let n = 0;
      let loading = true;
      const load = (async () => {
        while (loading) {
          const c = await h.app.handle(
            new Request("http://127.0.0.1/v1/pix/charges", {
              method: "POST",
              headers: { apikey: a.testKey, "content-type": "application/json", "idempotency-key": `prom-load-${++n}` },
              body: JSON.stringify({ amount: 1000 + n }),
            }),
          );
          const id = ((await c.json()) as { id: string }).id;
          await h.app.handle(new Request(`http://127.0.0.1/v1/charges/${id}`, { headers: { apikey: a.testKey } }));
          if (n % 2 === 0)
            await h.app.handle(
              new Request(`http://127.0.0.1/v1/test_helpers/charges/${id}/pay`, {
                method: "POST",
                headers: { apikey: a.testKey, "content-type": "application/json" },
                body: "{}",
              }),
            );
          await h.deps.jobs.drain();
          await Bun.sleep(20);
        }
      })();

      // Wait (at most 40 s) until Prometheus has scraped enough to answer all three.
      const RATE = 'sum(rate(cofre_http_request_duration_seconds_count{route="/v1/pix/charges",status="201"}[10s]))';
      const WEBHOOK_LAG = "histogram_quantile(0.9, sum by (le) (rate(cofre_webhook_delivery_lag_seconds_bucket[10s])))";
      const PSP_LATENCY =
        'histogram_quantile(0.9, sum by (le, provider, operation) (rate(cofre_psp_request_duration_seconds_bucket{outcome="ok"}[10s])))';
      let rate: Awaited<ReturnType<typeof query>> = [];
      let lag: typeof rate = [];
      let psp: typeof rate = [];
      let backlog: typeof rate = [];
      for (let i = 0; i < 80; i++) {
        [rate, lag, psp, backlog] = await Promise.all([
          query(RATE),
          query(WEBHOOK_LAG),
          query(PSP_LATENCY),
          query("cofre_webhook_queue_lag_seconds"),
        ]);
        const ready =
          rate.length === 1 &&
          Number(rate[0]!.value[1]) > 0 &&
          lag.length === 1 &&
          !Number.isNaN(Number(lag[0]!.value[1])) &&
          psp.length > 0 &&
          backlog.length === 1;
        if (ready) break;
        await Bun.sleep(500);
      }
      loading = false;
      await load;
      expect((await query('up{job="cofre"}')).map((r) => r.value[1])).toEqual(["1"]);
      expect(Number(rate[0]?.value[1])).toBeGreaterThan(0);
      expect(Number(lag[0]?.value[1])).toBeGreaterThanOrEqual(0);
      expect(psp.map((r) => `${r.metric.provider} ${r.metric.operation}`)).toContain("sandbox create");
      expect(Number(psp.find((r) => r.metric.operation === "create")!.value[1])).toBeGreaterThan(0);
      expect(Number(backlog[0]?.value[1])).toBeGreaterThanOrEqual(0);
      expect(rx.requests.length).toBeGreaterThan(0);

      // Every query of the Grafana dashboard is valid PromQL and finds series of this Cofre.
      const dashboard = (await Bun.file(join(import.meta.dir, "../../docs/grafana-cofre.json")).json()) as {
        panels: { title: string; targets: { expr: string }[] }[];
      };
      const empty: string[] = [];
      for (const panel of dashboard.panels)
        for (const t of panel.targets) {
          const q = t.expr.replaceAll("$__rate_interval", "30s").replaceAll('instance=~"$instance"', 'instance=~".*"');
          const res = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(q)}`);
          expect({ panel: panel.title, status: res.status }).toEqual({ panel: panel.title, status: 200 });
          if (((await res.json()) as { data: { result: unknown[] } }).data.result.length === 0) empty.push(panel.title);
        }
      // Series that need a PSP connection, a backup folder, payouts or a 5xx answer are absent in this run.
      expect(empty.filter((t) => !/certificate|Payout|Backup|5xx/.test(t))).toEqual([]);
    },
    60_000,
  );

  test.skipIf(!Bun.which("promtool") && !existsSync("/usr/bin/promtool"))(
    "the alert rules of docs/operations.md pass promtool check rules",
    async () => {
      const doc = await Bun.file(join(import.meta.dir, "../../docs/operations.md")).text();
      const rules = /```yaml\n(# \/etc\/prometheus\/rules\/cofre\.yml\n[\s\S]*?)```/.exec(doc)?.[1];
      expect(rules).toBeDefined();
      writeFileSync(join(dir, "rules.yml"), rules!);
      const p = Bun.spawnSync([Bun.which("promtool") ?? "/usr/bin/promtool", "check", "rules", join(dir, "rules.yml")]);
      expect({ code: p.exitCode, out: p.stdout.toString().trim().split("\n").pop()?.trim() }).toEqual({
        code: 0,
        out: "SUCCESS: 10 rules found",
      });
    },
  );
});
