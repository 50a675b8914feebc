/** Creating a cob (`PUT /cob/{txid}`, or a resumed create's `GET`): its request body and the create outcome of its answer. */
import { buildDynamicBrCode } from "../../pix/brcode";
import type { CreateOutcome, CreateRequest, ProviderContext, TransactionRow } from "../../domain/providers/types";
import type { PixAnswer } from "./pix";
import { nextPollAt } from "./polling";
import { toValor } from "./valor";

/** Longest `solicitacaoPagador` (OpenAPI `CobSolicitada.solicitacaoPagador`, maxLength 140). */
export const MAX_SOLICITACAO = 140;

/** `devedor` when both the customer's name and document (CPF 11 digits / CNPJ 14) are known. */
function devedorOf(tx: TransactionRow): Record<string, string> | undefined {
  const doc = tx.customerDocument?.replace(/[^0-9A-Za-z]/g, "").toUpperCase();
  const nome = tx.customerName?.trim();
  if (!doc || !nome) return undefined;
  if (/^\d{11}$/.test(doc)) return { cpf: doc, nome: nome.slice(0, 200) };
  if (/^[0-9A-Z]{12}\d{2}$/.test(doc)) return { cnpj: doc, nome: nome.slice(0, 200) };
  return undefined;
}

/** `solicitacaoPagador`: the charge's metadata `description`, cut to MAX_SOLICITACAO characters; undefined when blank. */
function descriptionOf(tx: TransactionRow): string | undefined {
  try {
    const d = (JSON.parse(tx.metadata) as { description?: unknown }).description;
    return typeof d === "string" && d.trim() !== "" ? [...d].slice(0, MAX_SOLICITACAO).join("") : undefined;
  } catch {
    return undefined;
  }
}

/** A cob as the PSP answers it (the fields read here). */
export interface CobAnswer {
  status?: string;
  calendario?: { criacao?: string; expiracao?: number };
  location?: string;
  loc?: { location?: string };
  pixCopiaECola?: string;
  valor?: { original?: string };
  pix?: PixAnswer[];
}

/** The `PUT /cob/{txid}` body of the charge `tx`, paid to the connection's key `pixKey`. */
export function cobBody(tx: TransactionRow, pixKey: string) {
  const expiracao = tx.ttlSeconds ?? (tx.expiresAt !== null ? Math.round((tx.expiresAt - tx.createdAt) / 1000) : 3600);
  const devedor = devedorOf(tx);
  const solicitacaoPagador = descriptionOf(tx);
  return {
    calendario: { expiracao },
    ...(devedor ? { devedor } : {}),
    valor: { original: toValor(tx.amount) },
    chave: pixKey,
    ...(solicitacaoPagador ? { solicitacaoPagador } : {}),
  };
}

/**
 * `pending` with the cob's BR Code and the first status check at `checkAt`; retryable when the cob has neither BR Code
 * nor location.
 */
export function createdOutcome(
  req: CreateRequest,
  connectionId: string,
  txid: string,
  cob: CobAnswer,
  checkAt: number | undefined,
): CreateOutcome {
  const tx = req.transaction;
  const location = cob.location ?? cob.loc?.location ?? null;
  let brCode = cob.pixCopiaECola ?? null;
  // A PSP that answers only the location: the dynamic BR Code is built from it (BCB manual).
  if (!brCode && location)
    brCode = buildDynamicBrCode({
      location,
      merchantName: req.merchant.name,
      merchantCity: req.merchant.city,
      amount: tx.amount,
    });
  if (!brCode)
    return {
      status: "retryable",
      code: "no_br_code",
      message: "The PSP created the cob without pixCopiaECola or location.",
    };
  return {
    status: "pending",
    columns: {
      pixTxid: txid,
      pixBrCode: brCode,
      pixLocation: location,
      expiresAt: tx.expiresAt,
      providerConnectionId: connectionId,
    },
    ...(checkAt !== undefined ? { checkAt } : {}),
  };
}

/**
 * A resumed create whose cob exists (`GET /cob/{txid}` 200): ATIVA with our valor -> pending with
 * it (no second PUT); CONCLUIDA with our valor (paid meanwhile) -> pending with a status check now,
 * which confirms and pays it; REMOVIDA_* -> rejected; another valor -> rejected `CobDivergente`.
 */
export function resumedOutcome(
  ctx: ProviderContext,
  req: CreateRequest,
  connectionId: string,
  txid: string,
  cob: CobAnswer,
): CreateOutcome {
  const tx = req.transaction;
  if (cob.status === "REMOVIDA_PELO_USUARIO_RECEBEDOR" || cob.status === "REMOVIDA_PELO_PSP")
    return { status: "rejected", code: cob.status, message: `The PSP reports the cob as ${cob.status}.` };
  if (cob.valor?.original !== toValor(tx.amount) || (cob.status !== "ATIVA" && cob.status !== "CONCLUIDA"))
    return {
      status: "rejected",
      code: "CobDivergente",
      message: `The PSP holds cob ${txid} with another amount or status.`,
    };
  const checkAt =
    cob.status === "CONCLUIDA" ? ctx.clock.nowMs() : nextPollAt(tx.createdAt, tx.expiresAt, ctx.clock.nowMs());
  return createdOutcome(req, connectionId, txid, cob, checkAt);
}
