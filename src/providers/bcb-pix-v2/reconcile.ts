/**
 * What reconciliation and live MED read from a PSP (extensions.md "Statement, exports and
 * reconciliation", "Live MED from the PSP"; fields from research/money-out.md "Efí MED"):
 * - received Pix of `GET /pix?inicio&fim` as ReceivedPix (every Pix, with or without a txid, and
 *   its devoluções: EM_PROCESSAMENTO -> IN_PROGRESS, DEVOLVIDO -> REFUNDED, NAO_REALIZADO -> FAILED);
 * - `efi` only: sent Pix of `GET /v2/gn/pix/enviados?inicio&fim` (paged like the standard's lists,
 *   `pix[]` of the by-id view: EM_PROCESSAMENTO -> processing, REALIZADO -> paid, NAO_REALIZADO ->
 *   failed; another status is skipped), MED infractions of `GET /v2/gn/infracoes?inicio&fim`
 *   (`infracoes[]`; `valor` a number of reais or the standard's string), and the defence
 *   `POST /v2/gn/infracoes/{idInfracao}/defesa` `{analise: "rejeitado", justificativa}`.
 * Failures as failures.ts maps them (a 4xx on a list is `invalid`, on the defence `rejected`).
 */
import type {
  DefenseRequest,
  InfractionListOutcome,
  PaymentListRequest,
  ProviderFailure,
  PspInfraction,
  ReceivedPix,
  SendListOutcome,
  SentPix,
} from "../../domain/providers/types";
import type { BcbPixClient } from "./client";
import { failureOf } from "./failures";
import { LIST_PAGE_SIZE, MAX_LIST_PAGES, rfc3339, type PixAnswer } from "./pix";
import type { EfiSendAnswer } from "./send";
import { fromValor } from "./valor";

/** A listed Pix with the devoluções the standard's `Pix` carries. */
export type ListedPix = PixAnswer & { devolucoes?: { id?: string; valor?: string; status?: string }[] };

const RETURN_STATUS: Record<string, ReceivedPix["returns"][number]["status"]> = {
  EM_PROCESSAMENTO: "IN_PROGRESS",
  DEVOLVIDO: "REFUNDED",
  NAO_REALIZADO: "FAILED",
};

/** A listed Pix as ReceivedPix, or null when it lacks an end-to-end id, a valid `valor` or `horario`. */
export function receivedOf(p: ListedPix | null | undefined): ReceivedPix | null {
  const amount = fromValor(p?.valor);
  const at = Date.parse(p?.horario ?? "");
  if (!p || typeof p.endToEndId !== "string" || amount === null || !Number.isFinite(at)) return null;
  const returns: ReceivedPix["returns"] = [];
  for (const d of p.devolucoes ?? []) {
    const valor = fromValor(d?.valor);
    const status = RETURN_STATUS[d?.status ?? ""];
    if (typeof d?.id === "string" && valor !== null && status) returns.push({ id: d.id, amount: valor, status });
  }
  return { endToEndId: p.endToEndId, txid: typeof p.txid === "string" ? p.txid : null, amount, at, returns };
}

interface ListAnswer {
  parametros?: { paginacao?: { quantidadeDePaginas?: number } };
}

/** Every page of list `path` over the window (`field`: the array's name); items or a failure. */
async function allPages<T>(
  client: BcbPixClient,
  path: string,
  field: string,
  req: PaymentListRequest,
  fromOrigin: boolean,
): Promise<T[] | ProviderFailure> {
  const out: T[] = [];
  const query = {
    inicio: rfc3339(req.from),
    fim: rfc3339(req.to + 999),
    "paginacao.itensPorPagina": String(LIST_PAGE_SIZE),
  };
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const r = await client.call<ListAnswer & Record<string, unknown>>("GET", path, {
      query: { ...query, "paginacao.paginaAtual": String(page) },
      fromOrigin,
    });
    if (r.kind !== "ok") return failureOf(r, "invalid");
    const items = r.body?.[field];
    if (Array.isArray(items)) out.push(...(items as T[]));
    const pages = r.body?.parametros?.paginacao?.quantidadeDePaginas ?? 1;
    if (page + 1 >= pages) break;
  }
  return out;
}

const SEND_STATUS: Record<string, SentPix["status"]> = {
  EM_PROCESSAMENTO: "processing",
  REALIZADO: "paid",
  NAO_REALIZADO: "failed",
};

/** `GET /v2/gn/pix/enviados?inicio&fim`: the Pix sent in the window. */
export async function listSends(client: BcbPixClient, req: PaymentListRequest): Promise<SendListOutcome> {
  const items = await allPages<EfiSendAnswer>(client, "/v2/gn/pix/enviados", "pix", req, true);
  if (!Array.isArray(items)) return items;
  const sends: SentPix[] = [];
  for (const s of items) {
    const amount = fromValor(s?.valor);
    const status = SEND_STATUS[s?.status ?? ""];
    const at = Date.parse(s?.horario?.solicitacao ?? "");
    if (amount === null || !status || !Number.isFinite(at)) continue;
    const sendId = s.idEnvio ?? s.gnExtras?.idEnvio ?? null;
    sends.push({
      sendId: typeof sendId === "string" ? sendId : null,
      endToEndId: s.e2eId ?? s.endToEndId ?? null,
      amount,
      status,
      at,
    });
  }
  return { status: "listed", sends };
}

interface InfracaoAnswer {
  idInfracao?: unknown;
  endToEndId?: unknown;
  valor?: unknown;
  status?: unknown;
  razao?: unknown;
  tipoSituacao?: unknown;
  criadoEm?: unknown;
  dadosAnalise?: { prazoFinalizacao?: unknown } | null;
}

const INFRACTION_STATUSES = new Set(["ABERTA", "EM_DEFESA", "ACEITA", "REJEITADA", "CANCELADA_EFI"]);

/** Efí's `valor` of an infraction (a number of reais, or "12.34") in centavos, or null. */
export function infractionValor(v: unknown): number | null {
  if (typeof v === "string") return fromValor(v);
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) return null;
  const centavos = Math.round(v * 100);
  return Math.abs(centavos - v * 100) < 1e-6 && Number.isSafeInteger(centavos) ? centavos : null;
}

/** One listed infraction, or null when a field it needs is missing or malformed. */
export function infractionOf(a: InfracaoAnswer | null | undefined): PspInfraction | null {
  if (!a || typeof a.idInfracao !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(a.idInfracao)) return null;
  if (typeof a.endToEndId !== "string" || !/^[A-Za-z0-9]{1,40}$/.test(a.endToEndId)) return null;
  const amount = infractionValor(a.valor);
  const createdAt = Date.parse(typeof a.criadoEm === "string" ? a.criadoEm : "");
  if (
    amount === null ||
    typeof a.status !== "string" ||
    !INFRACTION_STATUSES.has(a.status) ||
    !Number.isFinite(createdAt)
  )
    return null;
  const prazo = a.dadosAnalise?.prazoFinalizacao;
  const deadline = typeof prazo === "string" ? Date.parse(prazo) : NaN;
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 500) : null);
  return {
    id: a.idInfracao,
    endToEndId: a.endToEndId,
    amount,
    status: a.status as PspInfraction["status"],
    reason: text(a.razao),
    kind: text(a.tipoSituacao),
    createdAt,
    deadline: Number.isFinite(deadline) ? deadline : null,
  };
}

/** `GET /v2/gn/infracoes?inicio&fim`: the infractions of the window (malformed entries skipped). */
export async function listInfractions(client: BcbPixClient, req: PaymentListRequest): Promise<InfractionListOutcome> {
  const items = await allPages<InfracaoAnswer>(client, "/v2/gn/infracoes", "infracoes", req, true);
  if (!Array.isArray(items)) return items;
  return { status: "listed", infractions: items.map(infractionOf).filter((i): i is PspInfraction => i !== null) };
}

/** Longest `justificativa` sent, characters. */
export const MAX_JUSTIFICATIVA = 2000;

/** `POST /v2/gn/infracoes/{idInfracao}/defesa` `{analise: "rejeitado", justificativa}`. */
export async function submitDefense(
  client: BcbPixClient,
  req: DefenseRequest,
): Promise<{ status: "settled" } | ProviderFailure> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(req.infractionId))
    return { status: "invalid", code: "bad_infraction_id", message: "The infraction id is not valid." };
  const body = { analise: "rejeitado", justificativa: [...req.justification].slice(0, MAX_JUSTIFICATIVA).join("") };
  const r = await client.call("POST", `/v2/gn/infracoes/${req.infractionId}/defesa`, { body, fromOrigin: true });
  return r.kind === "ok" ? { status: "settled" } : failureOf(r, "rejected");
}
