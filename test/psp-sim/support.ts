/**
 * psp-sim test support: an initialised folder in a temp dir, the simulator on an ephemeral
 * 127.0.0.1 port over real mTLS (sharing a ManualClock with the test), a client that presents
 * the merchant certificate, and an https callback receiver that requires a client certificate
 * from the simulator CA (so a callback that arrives proves the simulator presented one).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpf } from "cpf-cnpj-validator";
import { ManualClock } from "../../src/lib/clock";
import { createLogger } from "../../src/lib/logger";
import { createCa, issue, type Issued } from "../../src/psp-sim/certs";
import { startPspSim, type PspSim, type PspSimOptions } from "../../src/psp-sim/server";
import type { ConnectInput } from "../../src/domain/pix-provider/service";
import { initSimDir, type InitResult, type PixProviderBody } from "../../src/psp-sim/setup";

/** Compile-time check: the simulator's operator body (declared in the simulator) is a valid ConnectInput. */
export const asConnectInput = (body: PixProviderBody): ConnectInput => body;

export const START = "2026-11-20T12:00:00.000Z";

/** A CPF that passes the check digits. */
export const validCpf = (): string => cpf.generate();

export interface SimFixture {
  root: string;
  init: InitResult;
  clock: ManualClock;
  sim: PspSim;
  /** Restarts the simulator on the same folder (same file), same clock. */
  restart(opts?: Partial<PspSimOptions>): Promise<PspSim>;
  cleanup(): Promise<void>;
}

/** Inits a folder and starts the simulator on it. */
export async function startFixture(opts: Partial<PspSimOptions> = {}): Promise<SimFixture> {
  const root = mkdtempSync(join(tmpdir(), "psp-sim-"));
  const init = await initSimDir(join(root, "sim"), { port: 0 });
  const clock = new ManualClock(START);
  const logger = createLogger("silent");
  const base = { dir: init.dir, port: 0, clock, logger, ...opts };
  const fx: SimFixture = {
    root,
    init,
    clock,
    sim: await startPspSim(base),
    async restart(more = {}) {
      await fx.sim.stop();
      fx.sim = await startPspSim({ ...base, ...more });
      return fx.sim;
    },
    async cleanup() {
      await fx.sim.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return fx;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for an empty body. */
  body: any;
}

/** A client of the simulator presenting `identity` (default the merchant certificate). */
export class SimClient {
  token = "";
  constructor(
    private readonly fx: SimFixture,
    private readonly identity: Issued = { cert: fx.init.body.certificate, key: fx.init.body.private_key },
    /** The connection (client id, secret, key); default the one init wrote. */
    readonly conn: PixProviderBody = fx.init.body,
  ) {}

  get pixKey(): string {
    return this.conn.pix_key;
  }

  async raw(
    method: string,
    url: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const res = await fetch(url, {
      method,
      headers: init.headers,
      body: init.body,
      tls: { cert: this.identity.cert, key: this.identity.key, ca: this.fx.init.body.ca_certificates },
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === "" ? null : JSON.parse(text) };
  }

  /** POST /oauth/token with Basic credentials; keeps the token. */
  async login(secret = this.conn.client_secret, form = "grant_type=client_credentials"): Promise<Answer> {
    const basic = Buffer.from(`${this.conn.client_id}:${secret}`).toString("base64");
    const r = await this.raw("POST", this.fx.sim.tokenUrl, {
      body: form,
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    });
    if (r.status === 200) this.token = r.body.access_token;
    return r;
  }

  /** An API Pix call (`path` below /api/v2) with the bearer token and a JSON body. */
  api(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.raw(method, this.fx.sim.apiUrl + path, {
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
    });
  }

  /** A call to an Efí route (`path` from the origin, e.g. `/v3/gn/pix/{idEnvio}` or `/v2/cob/{txid}`) with the bearer token. */
  efi(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.raw(method, this.fx.sim.origin + path, {
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json", ...headers },
    });
  }

  /** A control route (`/_sim/...`). */
  control(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.raw(method, this.fx.sim.origin + path, {
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { "content-type": "application/json" },
    });
  }

  /** PUT /cob/{txid} with a valid body (`over` replaces fields). */
  putCob(txid: string, over: Record<string, unknown> = {}): Promise<Answer> {
    return this.api("PUT", `/cob/${txid}`, {
      calendario: { expiracao: 3600 },
      valor: { original: "123.45" },
      chave: this.pixKey,
      ...over,
    });
  }
}

/** A txid of `n` alphanumerics (26-35 is valid). */
export function txid(n = 32, seed = Math.random().toString(36).slice(2)): string {
  return (seed.replace(/[^a-zA-Z0-9]/g, "") + "T".repeat(n)).slice(0, n);
}

export interface Receiver {
  url: string;
  /** Every callback received: path and parsed body. */
  received: { path: string; body: any }[];
  /** Resolves with the next callback (or one already received and not yet taken). */
  next(): Promise<{ path: string; body: any }>;
  /** Status the receiver answers (default 200). */
  answer: number;
  stop(): void;
}

/**
 * An https receiver on 127.0.0.1 with its own CA (`receiverCa`), requiring a client certificate
 * signed by `clientCa` (the simulator CA) at the handshake.
 */
export async function startReceiver(clientCa: string): Promise<Receiver & { receiverCa: string }> {
  const ca = await createCa("receiver test CA");
  const server = await issue(ca, "localhost", "server", ["localhost", "127.0.0.1"]);
  const received: { path: string; body: any }[] = [];
  let taken = 0;
  const waiters: ((v: { path: string; body: any }) => void)[] = [];
  const r = {
    received,
    answer: 200,
    receiverCa: ca.cert,
    url: "",
    next() {
      if (taken < received.length) return Promise.resolve(received[taken++]!);
      return new Promise<{ path: string; body: any }>((resolve) => waiters.push(resolve));
    },
    stop: () => srv.stop(true),
  };
  const srv = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: server.cert, key: server.key, ca: clientCa, requestCert: true, rejectUnauthorized: true },
    async fetch(req) {
      const item = { path: new URL(req.url).pathname, body: await req.json() };
      received.push(item);
      const w = waiters.shift();
      if (w) {
        taken++;
        w(item);
      }
      return new Response(r.answer === 200 ? "ok" : "no", { status: r.answer });
    },
  });
  r.url = `https://127.0.0.1:${srv.port}/hooks/cofre`;
  return r;
}

/** The simulator CA of a fixture (PEM). */
export function simCa(fx: SimFixture): string {
  return readFileSync(join(fx.init.dir, "ca.crt"), "utf8");
}
