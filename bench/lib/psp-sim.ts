/**
 * Drives `cofre psp-sim` as a child process for the live bench, the live soak and the BCB contract
 * check: `init` a folder on a free 127.0.0.1 port, start it (optionally with `--exchange-log`),
 * kill and restart it, and call its control routes (`/_sim/...`) and the API Pix over mTLS with
 * the merchant certificate that `init` wrote.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { PixProviderBody } from "../../src/psp-sim/setup";
import { BIN, freePort, ROOT } from "./server";

/** `pix-provider.json` that `psp-sim init` writes: the operator PUT body of a connection. */
export type SimConnectionBody = PixProviderBody;

export interface SimOptions {
  /** Command that runs the executable (default `[dist/cofre]`). */
  cmd?: string[];
  /** JSONL exchange log (`--exchange-log`). */
  exchangeLog?: string;
  /** `--auto-settle`: devoluções settle as DEVOLVIDO at once. */
  autoSettle?: boolean;
  /** `--send-results`: how Efí sends end (`bands`, the simulator's default; `settle`; `manual`). */
  sendResults?: "bands" | "settle" | "manual";
}

export class SimProcess {
  readonly dir: string;
  readonly port: number;
  readonly origin: string;
  proc: Subprocess | null = null;
  body!: SimConnectionBody;
  /**
   * The same client as an `efi` connection (`pix-provider-efi.json`: api_url = the origin), or null when this build
   * writes none.
   */
  efiBody: SimConnectionBody | null = null;
  private readonly cmd: string[];

  constructor(private readonly opts: SimOptions = {}) {
    this.cmd = opts.cmd ?? [BIN];
    this.dir = join(mkdtempSync(join(tmpdir(), "psp-sim-run-")), "sim");
    this.port = freePort();
    this.origin = `https://127.0.0.1:${this.port}`;
    process.on("exit", () => this.proc?.kill("SIGKILL"));
  }

  /** `psp-sim init` on the folder; reads the connection body it wrote. */
  async init(): Promise<SimConnectionBody> {
    const p = Bun.spawn(
      [...this.cmd, "psp-sim", "init", this.dir, "--port", String(this.port), "--host", "127.0.0.1"],
      { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
    );
    const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    if (code !== 0) throw new Error(`psp-sim init failed (${code}): ${err}`);
    this.body = JSON.parse(readFileSync(join(this.dir, "pix-provider.json"), "utf8"));
    try {
      this.efiBody = JSON.parse(readFileSync(join(this.dir, "pix-provider-efi.json"), "utf8"));
    } catch {
      this.efiBody = null;
    }
    return this.body;
  }

  /** Starts the simulator and resolves once `/_sim/state` answers over mTLS. */
  async start(timeoutMs = 15_000): Promise<void> {
    const args = ["psp-sim", "--dir", this.dir];
    if (this.opts.exchangeLog) args.push("--exchange-log", this.opts.exchangeLog);
    if (this.opts.autoSettle) args.push("--auto-settle");
    if (this.opts.sendResults) args.push("--send-results", this.opts.sendResults);
    this.proc = Bun.spawn([...this.cmd, ...args], {
      cwd: ROOT,
      env: { ...process.env, PSP_SIM_LOG_LEVEL: "warn" },
      stdout: "ignore",
      stderr: "inherit",
    });
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      try {
        if ((await this.control("GET", "/_sim/state")).status === 200) return;
      } catch {}
      if (this.proc.exitCode !== null) throw new Error(`psp-sim exited with ${this.proc.exitCode} while starting`);
      await Bun.sleep(25);
    }
    throw new Error("psp-sim did not become ready");
  }

  async kill(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    if (!this.proc) return;
    this.proc.kill(signal);
    await this.proc.exited;
    this.proc = null;
  }

  /** An mTLS request with the merchant certificate; JSON body in and out. */
  async request(
    method: string,
    url: string,
    opts: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(url, {
      method,
      headers: { ...(opts.body === undefined ? {} : { "content-type": "application/json" }), ...opts.headers },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(10_000),
      tls: { cert: this.body.certificate, key: this.body.private_key, ca: this.body.ca_certificates },
    } as RequestInit);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {}
    return { status: res.status, body };
  }

  /** A control route of the simulator (`/_sim/...`). */
  control(method: string, path: string, body?: unknown) {
    return this.request(method, this.origin + path, { body });
  }

  /** An access token of the merchant client (POST /oauth/token, Basic auth). */
  async token(): Promise<string> {
    const basic = Buffer.from(`${this.body.client_id}:${this.body.client_secret}`).toString("base64");
    const res = await fetch(this.body.token_url, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
      tls: { cert: this.body.certificate, key: this.body.private_key, ca: this.body.ca_certificates },
    } as RequestInit);
    if (res.status !== 200) throw new Error(`psp-sim token: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  /** Every cob the simulator holds (`GET /_sim/cobs`). */
  async cobs(): Promise<{ client_id: string; txid: string; status: string; revisao: number; valor: string }[]> {
    const r = await this.control("GET", "/_sim/cobs");
    if (r.status !== 200) throw new Error(`GET /_sim/cobs: ${r.status}`);
    return Array.isArray(r.body) ? r.body : (r.body.data ?? r.body.cobs);
  }
}

/** Sorted-sample percentile (nearest rank), ms rounded to 0.01. */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const v = s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return v === undefined ? NaN : Math.round(v * 100) / 100;
}
