/**
 * Pix provider connection test support: a psp-sim fixture (test/psp-sim/support.ts) and the
 * connection a BcbPixClient needs to reach it, plus a fetch wrapper that records every exchange.
 */
import { BcbPixClient, type BcbConnection, type ClientOptions } from "../../src/providers/bcb-pix-v2/client";
import type { HttpFetch } from "../../src/domain/providers/types";
import type { SimFixture } from "../psp-sim/support";

/** The connection `psp-sim init` wrote, in the client's shape. */
export function simConnection(fx: SimFixture, over: Partial<BcbConnection> = {}): BcbConnection {
  const b = fx.init.body;
  return {
    id: "ppc_test",
    apiUrl: fx.sim.apiUrl,
    tokenUrl: fx.sim.tokenUrl,
    clientId: b.client_id,
    clientSecret: b.client_secret,
    certificate: b.certificate,
    privateKey: b.private_key,
    caCertificates: b.ca_certificates,
    scope: null,
    tokenAuth: "basic",
    apiQuery: null,
    ...over,
  };
}

export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  status: number | null;
}

/** The global fetch, recording each request (and its status, once answered). */
export function recordingFetch(): { fetch: HttpFetch; log: Recorded[] } {
  const log: Recorded[] = [];
  const wrapped: HttpFetch = async (input, init = {}) => {
    const entry: Recorded = {
      method: init.method ?? "GET",
      url: String(input),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === "string" ? init.body : null,
      status: null,
    };
    log.push(entry);
    const res = await fetch(input, init);
    entry.status = res.status;
    return res;
  };
  return { fetch: wrapped, log };
}

/** A client of the fixture's simulator with a recording fetch. */
export function simClient(fx: SimFixture, over: Partial<BcbConnection> = {}, opts: Partial<ClientOptions> = {}) {
  const rec = recordingFetch();
  const client = new BcbPixClient(simConnection(fx, over), { fetch: rec.fetch, clock: fx.clock, ...opts });
  return { client, log: rec.log };
}

/** The operator token of connection tests. */
export const OPERATOR_TOKEN = "operator-token-for-tests";

/** Path of the operator connection routes of `accountId`. */
export const connectionPath = (accountId: string) => `/v1/operator/accounts/${accountId}/pix-provider`;

/** The exact keys of the connection view (extensions.md). */
export const VIEW_KEYS = [
  "api_url",
  "certificate_expires_at",
  "certificate_fingerprint_sha256",
  "client_id",
  "created_at",
  "id",
  "pix_key",
  "token_url",
  "type",
  "updated_at",
  "webhook_registered",
  "webhook_url",
];
