/**
 * Pix send through an `efi` connection (extensions.md "Pix send through a PSP: connection type
 * `efi`"; facts in research/money-out.md "Efí Pix send"): payouts and cashout refunds are one
 * `PUT /v3/gn/pix/{idEnvio}` each, `idEnvio` = the domain's `sendId` (`[a-zA-Z0-9]{1,35}`, Efí's
 * idempotency key), body `{valor (reais, "0.00"), pagador {chave = the connection's key,
 * infoPagador?}, favorecido {chave, cpf|cnpj?} | {contaBanco {nome, cpf|cnpj, codigoBanco (ISPB),
 * agencia, conta, tipoConta cacc|svgs}}}`; asked with `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`.
 *
 * Status table (Efí `status` -> SendOutcome):
 *   EM_PROCESSAMENTO -> processing (endToEndId = `e2eId`/`endToEndId`), checkAt = next check
 *                       (15 s, 1 min, 5 min after the request, then every 15 min)
 *   REALIZADO        -> paid (endToEndId; paidAt = `horario.liquidacao` when given)
 *   NAO_REALIZADO    -> rejected, code = `gnExtras.erro.codigo` (e.g. AC03) or NAO_REALIZADO,
 *                       message = `gnExtras.erro.motivo` when given
 *   anything else    -> invalid `unknown_status` (nothing changes; checked again later)
 * Answers to the PUT:
 *   2xx                                  -> the table above
 *   timeout, network, 429, 5xx           -> resolved with the GET (never a second PUT): found ->
 *                                           the table; 404 -> retryable (the next try is resumed)
 *   409 (`id_envio_duplicado`)           -> resolved with the GET: found with our `valor` -> the
 *                                           table; another `valor` or none -> retryable
 *   401 after a fresh token              -> auth_failed
 *   other 4xx (400 `documento_bloqueado`, `chave_invalida`, `chave_nao_pertence_ao_documento`,
 *   `valor_invalido`; 422 `pagamento_negado`) -> rejected, code = Efí's error `nome`
 * Answers to the GET: 2xx -> the table (another `valor` under our id -> invalid
 * `id_envio_divergente`: nothing changes); 404 -> absent (never reached Efí: sending is safe);
 * timeout, network, 429, 5xx -> retryable; 401 -> auth_failed; other 4xx -> invalid.
 * A resumed send (an earlier attempt may have reached Efí) asks the GET first and PUTs only
 * when it answers 404.
 */
import type { ProviderFailure, SendDestination, SendOutcome, SendRequest } from "../../domain/providers/types";
import type { BcbPixClient } from "./client";
import { nextDevolucaoCheckAt } from "./devolucao";
import { failureOf } from "./failures";
import type { PspResult } from "./results";
import { fromValor, toValor } from "./valor";

/** Efí's `idEnvio` pattern. */
export const ID_ENVIO_RE = /^[a-zA-Z0-9]{1,35}$/;
/** Longest `pagador.infoPagador`, characters. */
export const MAX_INFO_PAGADOR = 140;

/** The parts of Efí's send answers (PUT 201 and GET by idEnvio) we read. */
export interface EfiSendAnswer {
  idEnvio?: string;
  e2eId?: string;
  endToEndId?: string;
  valor?: string;
  status?: string;
  horario?: { solicitacao?: string; liquidacao?: string };
  gnExtras?: { idEnvio?: string; erro?: { codigo?: string; origem?: string; motivo?: string } };
}

/** Efí's `favorecido` of a destination. */
export function favorecidoOf(d: SendDestination): Record<string, unknown> {
  const doc = (taxId: string | null) => {
    const digits = taxId?.replace(/\D/g, "") ?? "";
    return digits.length === 11 ? { cpf: digits } : digits.length === 14 ? { cnpj: digits } : {};
  };
  if (d.type === "pix_key") return { chave: d.pixKey, ...doc(d.taxId) };
  return {
    contaBanco: {
      nome: d.name,
      ...doc(d.taxId),
      codigoBanco: d.ispb,
      agencia: d.branch,
      conta: d.account,
      tipoConta: d.accountType === "savings" ? "svgs" : "cacc",
    },
  };
}

/** The PUT body of `req` paid from key `pixKey`. */
export function sendBody(pixKey: string, req: SendRequest): Record<string, unknown> {
  const info = req.description?.trim() ? [...req.description.trim()].slice(0, MAX_INFO_PAGADOR).join("") : null;
  return {
    valor: toValor(req.amount),
    pagador: { chave: pixKey, ...(info ? { infoPagador: info } : {}) },
    favorecido: favorecidoOf(req.destination),
  };
}

/** An answer of Efí about a send as a SendOutcome (the module's status table). */
export function sendOutcomeOf(a: EfiSendAnswer | null | undefined, requestedAt: number, now: number): SendOutcome {
  const e2e = a?.e2eId ?? a?.endToEndId ?? null;
  switch (a?.status) {
    case "EM_PROCESSAMENTO":
      return { status: "processing", endToEndId: e2e, checkAt: nextDevolucaoCheckAt(requestedAt, now) };
    case "REALIZADO": {
      if (!e2e) return { status: "processing", endToEndId: null, checkAt: nextDevolucaoCheckAt(requestedAt, now) };
      const at = Date.parse(a.horario?.liquidacao ?? "");
      return { status: "paid", endToEndId: e2e, ...(Number.isFinite(at) ? { paidAt: at } : {}) };
    }
    case "NAO_REALIZADO": {
      const erro = a.gnExtras?.erro;
      const code = erro?.codigo && /^[A-Za-z0-9_]{1,40}$/.test(erro.codigo) ? erro.codigo : "NAO_REALIZADO";
      return { status: "rejected", code, message: erro?.motivo?.trim() || "Efí did not make the Pix send." };
    }
    default:
      return { status: "invalid", code: "unknown_status", message: "Efí answered an unknown send status." };
  }
}

const sendPath = (id: string) => `/v3/gn/pix/${id}`;
const sendStatusPath = (id: string) => `/v2/gn/pix/enviados/id-envio/${id}`;

function badId(): ProviderFailure {
  return {
    status: "invalid",
    code: "bad_id_envio",
    message: "The send id is not a valid idEnvio ([a-zA-Z0-9]{1,35}).",
  };
}

/** `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`: where send `req` stands (404 -> absent). */
export async function getSend(client: BcbPixClient, now: number, req: SendRequest): Promise<SendOutcome> {
  if (!ID_ENVIO_RE.test(req.sendId)) return badId();
  const r = await client.call<EfiSendAnswer>("GET", sendStatusPath(req.sendId), { fromOrigin: true });
  return statusAnswer(r, req, now);
}

function statusAnswer(r: PspResult<EfiSendAnswer>, req: SendRequest, now: number): SendOutcome {
  if (r.kind === "ok") {
    // Another amount under our id (a PSP mix-up): nothing is decided from it (checked again later).
    if (r.body?.valor !== undefined && fromValor(r.body.valor) !== req.amount)
      return {
        status: "invalid",
        code: "id_envio_divergente",
        message: `Efí holds send ${req.sendId} with another valor.`,
      };
    return sendOutcomeOf(r.body, req.requestedAt, now);
  }
  if (r.kind === "http_error" && r.status === 404) return { status: "absent" };
  return failureOf(r, "invalid");
}

/**
 * Sends `req` from key `pixKey`, once (see the module header): `resumed` asks first; a doubtful
 * answer (timeout, 5xx, 409) is resolved with the GET, never with a second PUT.
 */
export async function putSend(
  client: BcbPixClient,
  now: number,
  pixKey: string,
  req: SendRequest,
): Promise<SendOutcome> {
  if (!ID_ENVIO_RE.test(req.sendId)) return badId();
  if (req.resumed) {
    const found = await getSend(client, now, req);
    if (found.status !== "absent") return found.status === "invalid" ? { ...found, status: "retryable" } : found;
  }
  const r = await client.call<EfiSendAnswer>("PUT", sendPath(req.sendId), {
    body: sendBody(pixKey, req),
    fromOrigin: true,
  });
  if (r.kind === "ok") return sendOutcomeOf(r.body, req.requestedAt, now);
  const failure = failureOf(r, "rejected");
  const doubtful = failure.status === "retryable" || (r.kind === "http_error" && r.status === 409);
  if (!doubtful) return failure;
  // It may have gone through (a lost answer) or be ours from an earlier attempt: the GET decides.
  const found = await client.call<EfiSendAnswer>("GET", sendStatusPath(req.sendId), { fromOrigin: true });
  const o = statusAnswer(found, req, now);
  if (o.status === "absent" || o.status === "invalid" || o.status === "auth_failed")
    // Unknown yet: try again later, resumed (a 409 with no send found is Efí's own doubt too).
    return { status: "retryable", code: failure.code, message: `${failure.message}; the send is not found yet` };
  return o;
}
