/**
 * psp-sim's Efí routes (extensions.md "Pix send through a PSP: connection type `efi`"; fields from
 * research/money-out.md "Efí Pix send"), served beside the standard ones (server.ts): an `efi`
 * connection's `api_url` is the simulator's origin.
 *   PUT /v3/gn/pix/{idEnvio}                  (scope pix.send) body {valor, pagador {chave,
 *                                             infoPagador?}, favorecido {chave, cpf?|cnpj?} |
 *                                             {contaBanco {nome, cpf|cnpj, codigoBanco, agencia,
 *                                             conta, tipoConta}}} -> 201 {idEnvio, e2eId, valor,
 *                                             horario {solicitacao}, status EM_PROCESSAMENTO}
 *   GET /v2/gn/pix/enviados/id-envio/{idEnvio} (gn.pix.send.read) -> 200 the send, 404
 *   GET /v2/gn/pix/enviados/{e2eId}           (gn.pix.send.read) -> 200 the send, 404
 *   GET /v2/gn/saldo                          (gn.balance.read) -> 200 {saldo}
 * Errors as Efí answers them, `{nome, mensagem}`: 400 `json_invalido` (body shape), `valor_invalido`,
 * `documento_bloqueado` (a favorecido CPF/CNPJ blocked by `POST /_sim/faults/block-document`),
 * `chave_invalida` (pagador key not the client's, or a favorecido without key or account),
 * `id_envio_invalido`; 409 `id_envio_duplicado` (an idEnvio already used); 422
 * `pagamento_negado` (balance below valor, or above R$ 20.00 under the `bands` rule); 404
 * `pix_enviado_nao_encontrado`.
 * Balance: each client has one (centavos; `initialBalance` until a control route sets it); a send
 * takes its valor when accepted, and NAO_REALIZADO gives it back. Results (`sendResults`):
 * `bands` (default, Efí's homologation: 0.01-10.00 REALIZADO, 10.01-20.00 NAO_REALIZADO, both
 * right after the answer with a callback; above 20.00 refused at the request), `settle`
 * (every send REALIZADO right after), `manual` (EM_PROCESSAMENTO until `/_sim/sends/{id}/settle`
 * or `/fail`). A finished send calls back the pagador key's webhook (callbacks.ts `notifySend`).
 */
import { newEndToEndId } from "../pix/ids";
import type { ApiCtx, Reply, SimEnv } from "./core";
import { clientKeys, SIM_PSP_ISPB } from "./core";
import { formatValor, isObject, parseValor, rfc3339 } from "./format";
import type { SendRow, SendStatus } from "./store";

/** How sends end (see the header). */
export type SendResults = "bands" | "settle" | "manual";
export const SEND_RESULTS: readonly SendResults[] = ["bands", "settle", "manual"];
/** A client's balance until one is set: R$ 1,000,000.00. */
export const DEFAULT_INITIAL_BALANCE = 100_000_000;
/** Upper bounds of Efí's homologation bands, centavos. */
export const BAND_CONFIRMED_MAX = 1000;
export const BAND_REJECTED_MAX = 2000;

const ID_ENVIO_RE = /^[a-zA-Z0-9]{1,35}$/;

/** An Efí error answer. */
export class EfiError extends Error {
  constructor(
    readonly status: number,
    readonly nome: string,
    readonly mensagem: string,
  ) {
    super(mensagem);
  }
  reply(): Reply {
    return { status: this.status, body: { nome: this.nome, mensagem: this.mensagem } };
  }
}

/** The send as Efí's GET answers it. */
export function sendView(row: SendRow) {
  const favorecido = JSON.parse(row.favorecido) as Record<string, unknown>;
  const erro = row.erro ? (JSON.parse(row.erro) as Record<string, unknown>) : null;
  return {
    idEnvio: row.id_envio,
    e2eId: row.e2eid,
    valor: formatValor(row.valor),
    ...(typeof favorecido.chave === "string" ? { chave: favorecido.chave } : {}),
    status: row.status,
    horario: {
      solicitacao: rfc3339(row.solicitacao_ms),
      ...(row.liquidacao_ms !== null ? { liquidacao: rfc3339(row.liquidacao_ms) } : {}),
    },
    pagador: { chave: row.pagador_chave, ...(row.info_pagador ? { infoPagador: row.info_pagador } : {}) },
    favorecido,
    gnExtras: { idEnvio: row.id_envio, ...(erro ? { erro } : {}) },
  };
}

/** The callback entry of a send (`tipo: SOLICITACAO`). */
export function sendCallbackEntry(row: SendRow) {
  const erro = row.erro ? (JSON.parse(row.erro) as Record<string, unknown>) : null;
  return {
    endToEndId: row.e2eid,
    chave: row.pagador_chave,
    tipo: "SOLICITACAO",
    status: row.status,
    valor: formatValor(row.valor),
    horario: rfc3339(row.liquidacao_ms ?? row.solicitacao_ms),
    gnExtras: { idEnvio: row.id_envio, ...(erro ? { erro } : {}) },
  };
}

/** The client's balance, centavos. */
export function balanceOf(env: SimEnv, clientId: string): number {
  return env.store.balance(clientId) ?? env.initialBalance;
}

function parseBody(raw: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new EfiError(400, "json_invalido", "O corpo da requisição não é um JSON válido.");
  }
  if (!isObject(v)) throw new EfiError(400, "json_invalido", "O corpo da requisição deve ser um objeto JSON.");
  return v;
}

const str = (v: unknown, max: number): v is string => typeof v === "string" && v.length > 0 && v.length <= max;

/** `favorecido` checked: `{chave, cpf?|cnpj?}` or `{contaBanco{...}}`. */
function readFavorecido(v: unknown): Record<string, unknown> {
  if (!isObject(v)) throw new EfiError(400, "json_invalido", "O campo favorecido é obrigatório.");
  const doc = (o: Record<string, unknown>) =>
    (o.cpf === undefined || /^\d{11}$/.test(String(o.cpf))) &&
    (o.cnpj === undefined || /^\d{14}$/.test(String(o.cnpj)));
  if (v.chave !== undefined) {
    if (!str(v.chave, 77)) throw new EfiError(400, "chave_invalida", "A chave do favorecido é inválida.");
    if (!doc(v)) throw new EfiError(400, "json_invalido", "O documento do favorecido é inválido.");
    return v;
  }
  const c = v.contaBanco;
  if (!isObject(c)) throw new EfiError(400, "json_invalido", "Informe favorecido.chave ou favorecido.contaBanco.");
  const ok =
    str(c.nome, 200) &&
    (c.cpf !== undefined || c.cnpj !== undefined) &&
    doc(c) &&
    /^\d{8}$/.test(String(c.codigoBanco)) &&
    /^\d{1,4}$/.test(String(c.agencia)) &&
    /^\d{1,20}$/.test(String(c.conta)) &&
    (c.tipoConta === "cacc" || c.tipoConta === "svgs");
  if (!ok) throw new EfiError(400, "json_invalido", "favorecido.contaBanco não respeita o schema.");
  return v;
}

/** `PUT /v3/gn/pix/{idEnvio}`. */
export function putSend(ctx: ApiCtx): Reply {
  const { env, client } = ctx;
  const idEnvio = ctx.params.idEnvio!;
  if (!ID_ENVIO_RE.test(idEnvio))
    throw new EfiError(400, "id_envio_invalido", "O idEnvio deve respeitar ^[a-zA-Z0-9]{1,35}$.");
  const body = parseBody(ctx.rawBody);
  const valor = parseValor(body.valor);
  if (valor === null || valor === 0)
    throw new EfiError(400, "valor_invalido", "O valor deve respeitar \\d{1,10}\\.\\d{2} e ser positivo.");
  const pagador = body.pagador;
  if (!isObject(pagador) || !str(pagador.chave, 77))
    throw new EfiError(400, "json_invalido", "O campo pagador.chave é obrigatório.");
  if (!clientKeys(client).includes(pagador.chave))
    throw new EfiError(400, "chave_invalida", "A chave do pagador não pertence a esta conta.");
  if (
    pagador.infoPagador !== undefined &&
    (typeof pagador.infoPagador !== "string" || pagador.infoPagador.length > 140)
  )
    throw new EfiError(400, "json_invalido", "pagador.infoPagador deve ter no máximo 140 caracteres.");
  const favorecido = readFavorecido(body.favorecido);
  const conta = (favorecido.contaBanco ?? favorecido) as Record<string, unknown>;
  for (const doc of [conta.cpf, conta.cnpj])
    if (typeof doc === "string" && env.faults.blockedDocuments.has(doc))
      throw new EfiError(400, "documento_bloqueado", "O documento do favorecido está bloqueado para recebimento.");
  const now = env.clock.nowMs();
  const row = env.store.tx(() => {
    if (env.store.send(client.client_id, idEnvio))
      throw new EfiError(409, "id_envio_duplicado", `O idEnvio ${idEnvio} já foi utilizado.`);
    if (env.sendResults === "bands" && valor > BAND_REJECTED_MAX)
      throw new EfiError(
        422,
        "pagamento_negado",
        "Pagamento negado: em homologação, envios acima de R$ 20,00 são recusados.",
      );
    const saldo = balanceOf(env, client.client_id);
    if (saldo < valor) throw new EfiError(422, "pagamento_negado", "Pagamento negado: saldo insuficiente.");
    env.store.setBalance(client.client_id, saldo - valor);
    const row: SendRow = {
      client_id: client.client_id,
      id_envio: idEnvio,
      e2eid: newEndToEndId(new Date(now), SIM_PSP_ISPB),
      valor,
      pagador_chave: pagador.chave as string,
      info_pagador: (pagador.infoPagador as string | undefined) ?? null,
      favorecido: JSON.stringify(favorecido),
      status: "EM_PROCESSAMENTO",
      erro: null,
      solicitacao_ms: now,
      liquidacao_ms: null,
    };
    env.store.insertSend(row);
    return row;
  });
  finishByRule(env, row);
  return {
    status: 201,
    body: {
      idEnvio,
      e2eId: row.e2eid,
      valor: formatValor(valor),
      horario: { solicitacao: rfc3339(now) },
      status: row.status,
    },
  };
}

/** Ends a new (or, after a restart, pending) send by the simulator's rule, in the background, with its callback. */
export function finishByRule(env: SimEnv, row: SendRow): void {
  const to: SendStatus | null =
    env.sendResults === "settle"
      ? "REALIZADO"
      : env.sendResults === "bands"
        ? row.valor <= BAND_CONFIRMED_MAX
          ? "REALIZADO"
          : "NAO_REALIZADO"
        : null;
  if (!to) return;
  const erro =
    to === "NAO_REALIZADO"
      ? { codigo: "AC03", origem: "psp-sim", motivo: "Recusado pelo simulador (faixa de valores de homologação)." }
      : null;
  env.background(async () => {
    endSend(env, row.client_id, row.id_envio, to, erro);
    await env.callbacks.notifySend(row.client_id, row.id_envio);
  });
}

/**
 * Ends send `idEnvio` of `clientId` (REALIZADO, or NAO_REALIZADO with `erro`, its valor back in the
 * balance). Returns the row, or null when it was already final.
 */
export function endSend(
  env: SimEnv,
  clientId: string,
  idEnvio: string,
  to: "REALIZADO" | "NAO_REALIZADO",
  erro: Record<string, unknown> | null,
): SendRow | null {
  return env.store.tx(() => {
    const row = env.store.send(clientId, idEnvio);
    if (row?.status !== "EM_PROCESSAMENTO") return null;
    const now = env.clock.nowMs();
    env.store.finishSend(clientId, idEnvio, to, erro ? JSON.stringify(erro) : null, to === "REALIZADO" ? now : null);
    if (to === "NAO_REALIZADO") env.store.setBalance(clientId, balanceOf(env, clientId) + row.valor);
    return env.store.send(clientId, idEnvio);
  });
}

const notFound = () => new EfiError(404, "pix_enviado_nao_encontrado", "Pix enviado não encontrado.");

/** `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`. */
export function getSendById(ctx: ApiCtx): Reply {
  const row = ctx.env.store.send(ctx.client.client_id, ctx.params.idEnvio!);
  if (!row) throw notFound();
  return { status: 200, body: sendView(row) };
}

/** `GET /v2/gn/pix/enviados/{e2eId}`. */
export function getSendByE2e(ctx: ApiCtx): Reply {
  const row = ctx.env.store.sendByE2e(ctx.client.client_id, ctx.params.e2eId!);
  if (!row) throw notFound();
  return { status: 200, body: sendView(row) };
}

/** `GET /v2/gn/saldo`. */
export function getBalance(ctx: ApiCtx): Reply {
  return { status: 200, body: { saldo: formatValor(balanceOf(ctx.env, ctx.client.client_id)) } };
}
