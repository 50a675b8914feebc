/**
 * Reading the standard's received Pix (OpenAPI `components/schemas/Pix`: `endToEndId`, `txid`,
 * `valor` in reais, `horario` RFC 3339, plus the `pagador` {nome, cpf|cnpj} several PSPs add)
 * into a settled PaymentOutcome, and the pages of `GET /pix?inicio=&fim=` (`PixConsultados`,
 * `parametros.paginacao`).
 */
import type { PaymentOutcome } from "../../domain/providers/types";
import { fromValor } from "./valor";

export interface PixAnswer {
  endToEndId?: string;
  txid?: string;
  valor?: string;
  horario?: string;
  pagador?: { nome?: string; cpf?: string; cnpj?: string };
}

export interface PixListAnswer {
  parametros?: { paginacao?: { paginaAtual?: number; quantidadeDePaginas?: number } };
  pix?: PixAnswer[];
}

/** Pages of `GET /pix` read per sweep of one connection, at most (100 Pix each). */
export const MAX_LIST_PAGES = 50;
/** Items per page asked of `GET /pix` (`paginacao.itensPorPagina`, 1-1000). */
export const LIST_PAGE_SIZE = 100;

/** The settled outcome of Pix `pix`, or null when it lacks an end-to-end id or a valid `valor`. */
export function settledOf(pix: PixAnswer | undefined): Extract<PaymentOutcome, { status: "settled" }> | null {
  const amount = fromValor(pix?.valor);
  if (!pix?.endToEndId || amount === null) return null;
  const doc = pix.pagador?.cpf ?? pix.pagador?.cnpj ?? null;
  const horario = Date.parse(pix.horario ?? "");
  return {
    status: "settled",
    method: "PIX",
    amount,
    endToEndId: pix.endToEndId,
    payerTaxId: doc,
    payerName: pix.pagador?.nome ?? null,
    disclosed: doc !== null,
    ...(Number.isFinite(horario) ? { paidAt: horario } : {}),
  };
}

/** RFC 3339 (UTC, seconds) of epoch ms, as `GET /pix` takes `inicio`/`fim`. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
