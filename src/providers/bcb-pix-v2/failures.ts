/**
 * A PSP call's failure (results.ts) as a provider failure (types.ts): timeout, network, 429 and
 * 5xx -> retryable; auth_failed -> auth_failed; another 4xx -> what the flow says (`rejected` on
 * create, cancel and a devolução request; `invalid` on queries), code = the problem's name.
 */
import type { ProviderFailure } from "../../domain/providers/types";
import type { PspFailure } from "./results";

/**
 * Standard error name of a problem `type` (`https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida` ->
 * `CobOperacaoInvalida`).
 */
export function problemName(type: string | null, status: number): string {
  const name = type?.split("/").pop();
  return name && /^[A-Za-z0-9_]+$/.test(name) ? name : `http_${status}`;
}

/** A client failure as a provider failure; `client4xx` is what a 4xx other than 429 becomes. */
export function failureOf(r: PspFailure, client4xx: "rejected" | "invalid"): ProviderFailure {
  switch (r.kind) {
    case "timeout":
      return { status: "retryable", code: "timeout", message: r.message };
    case "network":
      return { status: "retryable", code: "network", message: r.message };
    case "auth_failed":
      return { status: "auth_failed", code: r.error ?? `http_${r.status}`, message: r.message };
    case "http_error":
      if (r.status >= 500 || r.status === 429)
        return { status: "retryable", code: problemName(r.type, r.status), message: r.message };
      return { status: client4xx, code: problemName(r.type, r.status), message: r.message };
  }
}
