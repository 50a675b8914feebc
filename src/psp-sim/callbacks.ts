/**
 * psp-sim webhook callbacks (OpenAPI `PUT /webhook/{chave}` `callbacks.listaPix`): `POST
 * {webhookUrl}/pix` (the suffix appended literally, as PSPs do) with `{pix: [Pix]}`, over TLS
 * presenting the simulator's callback client certificate (mTLS), trusting the system roots, the
 * simulator CA and any `--callback-ca`. Fired when a cob is paid, when a devolução reaches
 * DEVOLVIDO or NAO_REALIZADO, for Pix whose key has a registered webhook, and when an Efí send
 * (efi.ts) ends, to its pagador key's webhook (`tipo: SOLICITACAO`, `gnExtras.idEnvio`). One attempt each
 * (5 s timeout, redirects not followed), recorded in the `callbacks` table as sent (2xx),
 * failed or dropped (a control route drops the next N); attempts left pending by a crash are
 * sent again at start.
 */
import { rootCertificates } from "node:tls";
import type { Logger } from "../lib/logger";
import type { Issued } from "./certs";
import type { SimEnv } from "./core";
import { type ExchangeLog, loggedBody, loggedHeaders } from "./exchange-log";
import { rfc3339 } from "./format";
import { pixView } from "./pix-view";
import { sendCallbackEntry } from "./efi";
import type { CallbackStatus } from "./store";

export interface CallbackOutcome {
  /** "none": no webhook registered for the Pix key. */
  status: CallbackStatus | "none";
  id?: number;
  url?: string;
  http_status?: number;
  error?: string;
}

export interface CallbackOptions {
  identity: Issued;
  /** PEM roots trusted besides the system ones (the simulator CA, `--callback-ca`). */
  ca: string[];
  exchangeLog?: ExchangeLog;
  logger?: Logger;
  timeoutMs?: number;
}

export class Callbacks {
  private env!: SimEnv;
  private readonly ca: string[];
  constructor(private readonly opts: CallbackOptions) {
    this.ca = [...rootCertificates, ...opts.ca];
  }
  bind(env: SimEnv): void {
    this.env = env;
  }

  /** Sends the callback for one Pix (current view, with its devoluções). */
  async notifyPix(clientId: string, e2eid: string): Promise<CallbackOutcome> {
    const { store, clock, faults } = this.env;
    const pix = store.pix(clientId, e2eid);
    if (!pix || pix.txid === null) return { status: "none" };
    const hook = store.webhook(clientId, pix.chave);
    if (!hook) return { status: "none" };
    const url = `${hook.url}/pix`;
    const body = JSON.stringify({ pix: [pixView(this.env, pix)] });
    const id = store.insertCallback(clientId, url, body, clock.nowMs());
    if (faults.takeDrop()) {
      store.finishCallback(id, "dropped", null, null, null);
      return { status: "dropped", id, url };
    }
    return this.send(id, url, body);
  }

  /**
   * Sends the callback of an Efí send (efi.ts) to the webhook of its pagador key:
   * `{pix: [{endToEndId, chave, tipo: "SOLICITACAO", status, valor, horario, gnExtras {idEnvio, erro?}}]}`.
   */
  async notifySend(clientId: string, idEnvio: string): Promise<CallbackOutcome> {
    const { store, clock, faults } = this.env;
    const row = store.send(clientId, idEnvio);
    if (!row) return { status: "none" };
    const hook = store.webhook(clientId, row.pagador_chave);
    if (!hook) return { status: "none" };
    const url = `${hook.url}/pix`;
    const body = JSON.stringify({ pix: [sendCallbackEntry(row)] });
    const id = store.insertCallback(clientId, url, body, clock.nowMs());
    if (faults.takeDrop()) {
      store.finishCallback(id, "dropped", null, null, null);
      return { status: "dropped", id, url };
    }
    return this.send(id, url, body);
  }

  /** Sends attempts a crash left pending. */
  async resendPending(): Promise<void> {
    for (const row of this.env.store.pendingCallbacks()) await this.send(row.id, row.url, row.body);
  }

  private async send(id: number, url: string, body: string): Promise<CallbackOutcome> {
    const { store, clock } = this.env;
    const started = performance.now();
    const headers = { "content-type": "application/json" };
    let status: number | undefined;
    let text = "";
    let resHeaders: Headers | undefined;
    let error: string | undefined;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 5000),
        tls: { cert: this.opts.identity.cert, key: this.opts.identity.key, ca: this.ca },
      } as RequestInit);
      status = res.status;
      resHeaders = res.headers;
      text = await res.text();
    } catch (err) {
      error = err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err);
    }
    const ok = status !== undefined && status >= 200 && status < 300;
    store.finishCallback(
      id,
      ok ? "sent" : "failed",
      status ?? null,
      error ?? (ok ? null : `HTTP ${status}`),
      clock.nowMs(),
    );
    this.opts.exchangeLog?.record({
      at: rfc3339(clock.nowMs()),
      kind: "callback",
      route: "{webhookUrl}/pix",
      request: { method: "POST", url, path: new URL(url).pathname, headers, body: JSON.parse(body) },
      response: {
        status: status ?? 0,
        headers: resHeaders ? loggedHeaders(resHeaders) : {},
        body: error ? { error } : loggedBody(text),
      },
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    });
    if (!ok) this.opts.logger?.warn({ url, status, error }, "psp-sim callback failed");
    return {
      status: ok ? "sent" : "failed",
      id,
      url,
      ...(status !== undefined ? { http_status: status } : {}),
      ...(error ? { error } : {}),
    };
  }
}
