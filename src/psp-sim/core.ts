/**
 * psp-sim shared shapes: the environment every handler receives (store, clock, faults,
 * callbacks, listening address), a handler's reply, and the request context of an API route.
 */
import type { Clock } from "../lib/clock";
import type { Callbacks } from "./callbacks";
import type { SendResults } from "./efi";
import type { Faults } from "./faults";
import type { PixProviderBody } from "./setup";
import type { ClientRow, SimStore } from "./store";

/** ISPB the simulator uses as the receiving PSP (rtrId of devoluções). */
export const SIM_PSP_ISPB = "09999999";
/** ISPB of the payer's bank in the end-to-end ids of simulated payments. */
export const SIM_PAYER_ISPB = "99999999";

export interface SimEnv {
  store: SimStore;
  clock: Clock;
  faults: Faults;
  callbacks: Callbacks;
  /** `host:port` the cob locations (and so the BR Codes) point at; set once listening. */
  locationBase: string;
  /** Lifetime of new access tokens, seconds. */
  tokenTtlSeconds: number;
  /** Settle every new devolução (DEVOLVIDO) right after answering its PUT. */
  autoSettle: boolean;
  /** How Efí sends end (efi.ts): `bands` (Efí's homologation amounts), `settle` or `manual`. */
  sendResults: SendResults;
  /** A client's balance at the PSP until a control route sets it, centavos. */
  initialBalance: number;
  /** The connection fields every client shares (URLs, merchant certificate and key, CA). */
  connection: Pick<
    PixProviderBody,
    "type" | "api_url" | "token_url" | "certificate" | "private_key" | "ca_certificates"
  >;
  /** Runs `task` in the background; `stop()` waits for it (callbacks, auto-settlement). */
  background(task: () => Promise<unknown>): void;
}

/** What a handler answers: status, JSON body (omitted for 200/204 without content), headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Context of an authenticated API Pix call. */
export interface ApiCtx {
  env: SimEnv;
  client: ClientRow;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Raw request body ("" when none). */
  rawBody: string;
}

/** The receiver's Pix keys. */
export function clientKeys(client: ClientRow): string[] {
  return JSON.parse(client.pix_keys) as string[];
}
