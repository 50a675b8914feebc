/**
 * psp-sim injected faults (control routes `/_sim/faults/...`), held in memory (a restart clears
 * them): N error answers (500/503/504 as the standard's `ErroInternoDoServidor`,
 * `ServicoIndisponivel`, `IndisponibilidadePorTempoEsgotado`), before or after the operation
 * took effect; added latency, before the operation or after it took effect; N dropped callbacks; N token requests
 * refused as if our credentials were wrong (401 `invalid_client`, RFC 6749 5.2); documents whose Efí sends are refused.
 * A rule applies to calls whose
 * `"METHOD /path"` (a standard route's path without its `/api/v2` or `/v2` prefix, `/oauth/token`,
 * or an Efí route's full path, e.g. `PUT /v3/gn/pix/`) starts with `match`.
 */
import type { ProblemName } from "./problems";

export const FAULT_STATUSES = {
  500: "ErroInternoDoServidor",
  503: "ServicoIndisponivel",
  504: "IndisponibilidadePorTempoEsgotado",
} as const satisfies Record<number, ProblemName>;
export type FaultStatus = keyof typeof FAULT_STATUSES;

export interface ErrorRule {
  status: FaultStatus;
  /** Calls still to fail. */
  remaining: number;
  match: string;
  /** true: the operation takes effect, then the answer is the error (a lost response). */
  after: boolean;
}
export interface LatencyRule {
  ms: number;
  /** Calls still to delay; null = until cleared. */
  remaining: number | null;
  match: string;
  /** true: the operation takes effect first, then the answer waits (a PSP that accepted and answers too late). */
  after: boolean;
}

export class Faults {
  errors: ErrorRule[] = [];
  latency: LatencyRule[] = [];
  dropCallbacks = 0;
  /** Token requests still to refuse with 401 invalid_client, whatever the credentials. */
  authFailures = 0;
  /** CPF/CNPJ whose sends Efí refuses (400 `documento_bloqueado`; efi.ts). */
  blockedDocuments = new Set<string>();

  /** Consumes one matching error rule of the given phase. */
  takeError(key: string, after: boolean): ErrorRule | null {
    const rule = this.errors.find((r) => r.after === after && r.remaining > 0 && key.startsWith(r.match));
    if (!rule) return null;
    rule.remaining--;
    this.errors = this.errors.filter((r) => r.remaining > 0);
    return rule;
  }
  /**
   * Milliseconds to wait before (`after` false) or after (true) the operation of `key` (first matching rule, consumed
   * once).
   */
  takeLatency(key: string, after = false): number {
    const rule = this.latency.find((r) => r.after === after && key.startsWith(r.match));
    if (!rule) return 0;
    if (rule.remaining !== null && --rule.remaining <= 0) this.latency = this.latency.filter((r) => r !== rule);
    return rule.ms;
  }
  /** True when the next callback must be dropped (consumes one). */
  takeDrop(): boolean {
    if (this.dropCallbacks <= 0) return false;
    this.dropCallbacks--;
    return true;
  }
  /** True when the next token request must be refused (consumes one). */
  takeAuthFailure(): boolean {
    if (this.authFailures <= 0) return false;
    this.authFailures--;
    return true;
  }
  clear(): void {
    this.errors = [];
    this.latency = [];
    this.dropCallbacks = 0;
    this.authFailures = 0;
    this.blockedDocuments.clear();
  }
  view(): {
    errors: ErrorRule[];
    latency: LatencyRule[];
    drop_callbacks: number;
    auth_failures: number;
    blocked_documents?: string[];
  } {
    return {
      errors: this.errors.map((r) => ({ ...r })),
      latency: this.latency.map((r) => ({ ...r })),
      drop_callbacks: this.dropCallbacks,
      auth_failures: this.authFailures,
      ...(this.blockedDocuments.size ? { blocked_documents: [...this.blockedDocuments] } : {}),
    };
  }
}
