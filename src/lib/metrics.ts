/**
 * Prometheus metrics (extensions.md "Operations"; docs/operations.md says what each one means),
 * kept with `prom-client` in a registry of this process and served by GET /metrics when
 * COFRE_METRICS_TOKEN is set. Without the token every recorder is a no-op (`NOOP_METRICS`), so the
 * hot paths pay nothing.
 *
 * Labels are bounded: route PATTERNS (`/v1/charges/:id`, never an id), methods, status codes,
 * event types, outcomes, provider names and operations, job kinds. Durations are recorded in
 * seconds (callers pass milliseconds). The per-request histograms (`request`, `tx`, `pspCall`)
 * are `FastHistogram`s: a Map lookup and a bucket scan each.
 */
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Queue figures of one job kind, read at scrape time. */
export interface QueueStat {
  kind: string;
  /** Queued (not dead) jobs. */
  queued: number;
  /** Of those, due now (waiting for a worker). */
  due: number;
  /** Due time (epoch ms) of the oldest due job; null when none is due. */
  oldestDueAt: number | null;
}

/** What the scrape reads from the rest of the service (the composition root gives it). */
export interface ScrapeSources {
  /** Epoch ms by the service clock. */
  now(): number;
  queues(): Promise<QueueStat[]>;
  /** Certificate expiry (epoch ms) of each active PSP connection, with its connection type. */
  certificates(): Promise<{ type: string; expiresAt: number }[]>;
  /** Time (epoch ms) of the newest backup archive in COFRE_BACKUP_DIR, null when none (or no dir). */
  lastBackupAt(): Promise<number | null>;
  /** COFRE_BACKUP_INTERVAL in seconds (0 = no schedule). */
  backupIntervalSeconds: number;
}

export interface Metrics {
  readonly enabled: boolean;
  /** One answered HTTP request: `route` the matched PATTERN (or `unmatched`). */
  request(method: string, route: string, status: number, durationMs: number): void;
  /** One canonical event stored (`charge.paid`, `payout.created`, ...): a charge or payout transition. */
  event(type: string): void;
  /**
   * One webhook delivery attempt: its outcome, duration, and for a delivered one the age of its delivery (ms since
   * created).
   */
  webhookAttempt(outcome: string, durationMs: number, deliveredAfterMs: number | null): void;
  /** A job started `lagMs` after it was due. */
  jobStarted(kind: string, lagMs: number): void;
  /** One call to a payment provider (PSP, sandbox included). */
  pspCall(provider: string, operation: string, outcome: string, durationMs: number): void;
  /** One unit of work (store.tx) took `durationMs`; `ok` false when it threw. */
  tx(durationMs: number, ok: boolean): void;
  /** The exposition text (Prometheus text format 0.0.4). */
  render(): Promise<string>;
  readonly contentType: string;
}

const noop = () => {};

/** Metrics switched off (COFRE_METRICS_TOKEN unset): records nothing. */
export const NOOP_METRICS: Metrics = {
  enabled: false,
  request: noop,
  event: noop,
  webhookAttempt: noop,
  jobStarted: noop,
  pspCall: noop,
  tx: noop,
  render: async () => "",
  contentType: "text/plain; version=0.0.4; charset=utf-8",
};

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

/**
 * A histogram for the per-request paths (HTTP requests, units of work, PSP calls): one Map lookup
 * and a bucket scan per observation (~50 ns; prom-client's labelled observe hashes its labels,
 * ~2 us per call measured in the request path). It is a prom-client metric all the same: the
 * registry reads it through `get()` and writes the exposition text itself.
 */
class FastHistogram<L extends string> {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly slots = new Map<
    string,
    { labels: Record<string, string>; counts: Float64Array; sum: number; count: number }
  >();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly buckets: readonly number[],
  ) {}

  /** Records `value` (seconds) under the label values `values` (in `labelNames` order). */
  observe(values: readonly string[], value: number): void {
    const key = values.length === 1 ? values[0]! : values.join("\u0000");
    let slot = this.slots.get(key);
    if (!slot) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => {
        labels[n] = values[i]!;
      });
      this.slots.set(key, (slot = { labels, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 }));
    }
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    slot.counts[i]!++;
    slot.sum += value;
    slot.count++;
  }

  /** prom-client's metric shape: cumulative `_bucket` series (le), `_sum` and `_count`. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const slot of this.slots.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += slot.counts[i]!;
        values.push({ labels: { le, ...slot.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: "+Inf", ...slot.labels }, value: slot.count, metricName: `${this.name}_bucket` });
      values.push({ labels: slot.labels, value: slot.sum, metricName: `${this.name}_sum` });
      values.push({ labels: slot.labels, value: slot.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** A counter with one label for per-request paths (transitions): a Map lookup per increment; read by the registry through `get()`. */
class FastCounter {
  readonly type = "counter";
  readonly aggregator = "sum";
  private readonly counts = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
  ) {}

  inc(value: string): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
  }

  get() {
    const values = [...this.counts].map(([v, n]) => ({ labels: { [this.labelName]: v }, value: n }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** Known canonical event type -> [resource, transition] (anything else is not a transition). */
function transitionOf(type: string): ["charge" | "payout", string] | null {
  const dot = type.indexOf(".");
  const resource = type.slice(0, dot);
  if (resource !== "charge" && resource !== "payout") return null;
  return [resource, type.slice(dot + 1)];
}

/** A live registry with every Cofre metric, process metrics included (module doc). */
export function createMetrics(sources: ScrapeSources): Metrics {
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: "cofre_" });
  const registers = [register];

  const fast = <L extends string>(name: string, help: string, labelNames: readonly L[]) => {
    const h = new FastHistogram(name, help, labelNames, LATENCY_BUCKETS);
    register.registerMetric(h as never);
    return h;
  };
  const http = fast(
    "cofre_http_request_duration_seconds",
    "HTTP requests by method, route pattern and status: latency in seconds (the _count series counts requests).",
    ["method", "route", "status"],
  );

  const charges = new FastCounter(
    "cofre_charge_transitions_total",
    "Charge transitions, by the canonical event they emitted (created, paid, failed, expired, refunded).",
    "transition",
  );
  const payouts = new FastCounter(
    "cofre_payout_transitions_total",
    "Payout transitions, by the canonical event they emitted (created, paid, failed).",
    "transition",
  );
  register.registerMetric(charges as never);
  register.registerMetric(payouts as never);

  const attempts = new Histogram({
    name: "cofre_webhook_attempt_duration_seconds",
    help: "Webhook delivery attempts by outcome (delivered, http_error, redirect, timeout, network_error, refused): duration in seconds (_count counts attempts).",
    labelNames: ["outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const deliveredAfter = new Histogram({
    name: "cofre_webhook_delivery_lag_seconds",
    help: "Seconds from a delivery's creation (its event) to its successful attempt.",
    buckets: LAG_BUCKETS,
    registers,
  });

  const jobLag = new Histogram({
    name: "cofre_job_start_lag_seconds",
    help: "Seconds between a job's due time and its start, by kind.",
    labelNames: ["kind"] as const,
    buckets: LAG_BUCKETS,
    registers,
  });

  const psp = fast(
    "cofre_psp_request_duration_seconds",
    "Calls to payment providers by provider, operation and outcome (ok, rejected, retryable, auth_failed, not_supported, invalid, error): duration in seconds.",
    ["provider", "operation", "outcome"],
  );
  const tx = fast(
    "cofre_db_transaction_duration_seconds",
    "Units of work (database transactions) by outcome (commit, rollback): duration in seconds.",
    ["outcome"],
  );
  const COMMIT = ["commit"];
  const ROLLBACK = ["rollback"];

  // Read at scrape time.
  const queued = new Gauge({
    name: "cofre_jobs_queued",
    help: "Queued jobs by kind (webhook.deliver = webhook backlog).",
    labelNames: ["kind"] as const,
    registers,
  });
  const due = new Gauge({
    name: "cofre_jobs_due",
    help: "Jobs due now and not started, by kind.",
    labelNames: ["kind"] as const,
    registers,
  });
  const oldest = new Gauge({
    name: "cofre_jobs_oldest_due_age_seconds",
    help: "Age of the oldest due job not started yet, by kind (0 when none): the queue's lag.",
    labelNames: ["kind"] as const,
    registers,
  });
  const webhookBacklog = new Gauge({
    name: "cofre_webhook_queue_depth",
    help: "Webhook deliveries waiting for an attempt (queued webhook.deliver jobs).",
    registers,
  });
  const webhookLag = new Gauge({
    name: "cofre_webhook_queue_lag_seconds",
    help: "Age of the oldest webhook delivery attempt that is due and not started (0 when none).",
    registers,
  });
  const certs = new Gauge({
    name: "cofre_psp_certificate_expiry_timestamp_seconds",
    help: "Earliest client-certificate expiry (unix seconds) among active PSP connections, by connection type.",
    labelNames: ["provider"] as const,
    registers,
  });
  const backupAt = new Gauge({
    name: "cofre_backup_last_success_timestamp_seconds",
    help: "Unix time of the newest backup archive in COFRE_BACKUP_DIR (0 when none).",
    registers,
  });
  const backupInterval = new Gauge({
    name: "cofre_backup_interval_seconds",
    help: "COFRE_BACKUP_INTERVAL in seconds (0 = no scheduled backups).",
    registers,
  });

  const scrape = async () => {
    const now = sources.now();
    const [stats, certificates, lastBackup] = await Promise.all([
      sources.queues(),
      sources.certificates(),
      sources.lastBackupAt(),
    ]);
    for (const g of [queued, due, oldest, certs]) g.reset();
    let backlog = 0;
    let lag = 0;
    for (const s of stats) {
      const age = s.oldestDueAt === null ? 0 : Math.max(0, (now - s.oldestDueAt) / 1000);
      queued.set({ kind: s.kind }, s.queued);
      due.set({ kind: s.kind }, s.due);
      oldest.set({ kind: s.kind }, age);
      if (s.kind === "webhook.deliver") {
        backlog = s.queued;
        lag = age;
      }
    }
    webhookBacklog.set(backlog);
    webhookLag.set(lag);
    const earliest = new Map<string, number>();
    for (const c of certificates) earliest.set(c.type, Math.min(earliest.get(c.type) ?? Infinity, c.expiresAt));
    for (const [type, at] of earliest) certs.set({ provider: type }, Math.floor(at / 1000));
    backupAt.set(lastBackup === null ? 0 : Math.floor(lastBackup / 1000));
    backupInterval.set(sources.backupIntervalSeconds);
  };

  return {
    enabled: true,
    request(method, route, status, durationMs) {
      http.observe([method, route, String(status)], durationMs / 1000);
    },
    event(type) {
      const t = transitionOf(type);
      if (t) (t[0] === "charge" ? charges : payouts).inc(t[1]);
    },
    webhookAttempt(outcome, durationMs, deliveredAfterMs) {
      attempts.labels(outcome).observe(durationMs / 1000);
      if (deliveredAfterMs !== null) deliveredAfter.observe(Math.max(0, deliveredAfterMs) / 1000);
    },
    jobStarted(kind, lagMs) {
      jobLag.labels(kind).observe(Math.max(0, lagMs) / 1000);
    },
    pspCall(provider, operation, outcome, durationMs) {
      psp.observe([provider, operation, outcome], durationMs / 1000);
    },
    tx(durationMs, ok) {
      tx.observe(ok ? COMMIT : ROLLBACK, durationMs / 1000);
    },
    async render() {
      await scrape();
      return register.metrics();
    },
    contentType: register.contentType,
  };
}
