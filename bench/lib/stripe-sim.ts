/**
 * `cofre stripe-sim` as a child process of the compiled executable for the bench and soak scripts
 * (bench/cards.ts, bench/soak-live.ts): `stripe-sim init DIR --port P` (writes the operator body
 * `card-provider.json`), then `stripe-sim --dir DIR --port P` on 127.0.0.1 with short webhook
 * retries so events a killed Cofre missed arrive again within seconds. Plain HTTP; the API with
 * the account's `sk_test_` key (Bearer), control routes under `/_sim` without one.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { BIN, freePort, ROOT } from "./server";

export interface StripeSimBody {
  type: "stripe";
  secret_key: string;
  api_base: string;
}

export class StripeSimProcess {
  readonly dir = mkdtempSync(join(tmpdir(), "stripe-sim-bench-"));
  readonly port = freePort();
  readonly origin = `http://127.0.0.1:${this.port}`;
  body!: StripeSimBody;
  proc: Subprocess | null = null;

  constructor(
    private readonly opts: {
      /** Webhook retry delays in real ms (default 300 ms .. 8 s: a killed Cofre gets them again within seconds). */
      retryMs?: number[];
      /** Refund settlement delay in real ms (default 1000; null = manual). */
      refundDelayMs?: number | null;
    } = {},
  ) {
    process.on("exit", () => this.proc?.kill("SIGKILL"));
  }

  /** `cofre stripe-sim init DIR --port P`; reads the operator body it wrote. */
  async init(): Promise<void> {
    const p = Bun.spawn([BIN, "stripe-sim", "init", this.dir, "--port", String(this.port)], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    if ((await p.exited) !== 0) throw new Error(`stripe-sim init failed: ${await new Response(p.stderr).text()}`);
    this.body = JSON.parse(readFileSync(join(this.dir, "card-provider.json"), "utf8")) as StripeSimBody;
  }

  /** Starts the simulator and resolves once `GET /_sim/state` answers 200. */
  async start(timeoutMs = 15_000): Promise<void> {
    const retry = (this.opts.retryMs ?? [300, 1000, 2000, 4000, 8000]).join(",");
    const refund =
      this.opts.refundDelayMs === undefined
        ? "1000"
        : this.opts.refundDelayMs === null
          ? "manual"
          : String(this.opts.refundDelayMs);
    this.proc = Bun.spawn(
      [
        BIN,
        "stripe-sim",
        "--dir",
        this.dir,
        "--port",
        String(this.port),
        "--retry-ms",
        retry,
        "--refund-delay-ms",
        refund,
        "--dispute-delay-ms",
        "manual",
      ],
      {
        cwd: ROOT,
        env: { ...(process.env as Record<string, string>), LOG_LEVEL: "warn" },
        stdout: "ignore",
        stderr: "ignore",
      },
    );
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      try {
        if ((await fetch(`${this.origin}/_sim/state`)).status === 200) return;
      } catch {}
      if (this.proc.exitCode !== null) throw new Error(`stripe-sim exited with ${this.proc.exitCode} while starting`);
      await Bun.sleep(25);
    }
    throw new Error("stripe-sim did not become ready");
  }

  async kill(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    if (!this.proc) return;
    this.proc.kill(signal);
    await this.proc.exited;
    this.proc = null;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A control route (`/_sim/...`), JSON in and out. */
  async control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(this.origin + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    try {
      return { status: res.status, body: text ? JSON.parse(text) : null };
    } catch {
      return { status: res.status, body: text };
    }
  }

  /** A GET of Stripe's API with the account's key. */
  async get(path: string): Promise<{ status: number; body: any }> {
    const res = await fetch(this.origin + path, {
      headers: { authorization: `Bearer ${this.body.secret_key}` },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: await res.json() };
  }

  /** Every object of a list route (`/v1/checkout/sessions`, `/v1/refunds`), paged with `starting_after`. */
  async listAll(path: string): Promise<any[]> {
    const out: any[] = [];
    let after: string | null = null;
    for (;;) {
      const r = await this.get(`${path}?limit=100${after ? `&starting_after=${after}` : ""}`);
      if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      out.push(...r.body.data);
      if (!r.body.has_more || r.body.data.length === 0) return out;
      after = r.body.data.at(-1).id;
    }
  }
}
