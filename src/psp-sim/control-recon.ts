/** psp-sim control routes of the reconciliation day and MED infractions (listed in control.ts's header; efi-med.ts). */
import type { Reply } from "./core";
import { parseRfc3339, parseValor } from "./format";
import { balanceOf, sendView } from "./efi";
import { readPagador } from "./pix";
import { pixView } from "./pix-view";
import { problem, simProblem } from "./problems";
import { randomUUID } from "node:crypto";
import { clientKeys, SIM_PAYER_ISPB, SIM_PSP_ISPB } from "./core";
import { newEndToEndId } from "../pix/ids";
import { endInfracao, infracaoView, openInfracao } from "./efi-med";
import type { SendRow } from "./store";
import { body, findPix, findSend, type ControlCtx, type Handler } from "./control-shared";

function clientOf(ctx: ControlCtx) {
  const id = ctx.query.get("client_id") ?? ctx.env.store.clients()[0]?.client_id;
  const client = id ? ctx.env.store.client(id) : null;
  if (!client) throw simProblem("ControleInvalido", "no such client");
  return client;
}

function valorOf(v: unknown): number {
  const valor = parseValor(v);
  if (valor === null || valor === 0)
    throw simProblem("ControleInvalido", 'valor must be a positive amount like "12.34"');
  return valor;
}

function receive(ctx: ControlCtx): Reply {
  const b = body(ctx, ["valor", "horario", "pagador"]);
  const client = clientOf(ctx);
  const valor = valorOf(b.valor);
  const horario = b.horario === undefined ? ctx.env.clock.nowMs() : parseRfc3339(b.horario);
  if (horario === null) throw simProblem("ControleInvalido", "horario must be an RFC 3339 date-time");
  const pagador = readPagador(b.pagador);
  const row = {
    e2eid: newEndToEndId(new Date(horario), SIM_PAYER_ISPB),
    client_id: client.client_id,
    txid: null,
    valor,
    chave: clientKeys(client)[0]!,
    horario_ms: horario,
    info_pagador: null,
    pagador: pagador ? JSON.stringify(pagador) : null,
  };
  ctx.env.store.insertPix(row);
  return { status: 201, body: { pix: pixView(ctx.env, row) } };
}

function amendPix(ctx: ControlCtx): Reply {
  const b = body(ctx, ["valor", "horario"]);
  const pix = findPix(ctx);
  if (b.valor === undefined && b.horario === undefined)
    throw simProblem("ControleInvalido", "give valor, horario or both");
  const horario = b.horario === undefined ? pix.horario_ms : parseRfc3339(b.horario);
  if (horario === null) throw simProblem("ControleInvalido", "horario must be an RFC 3339 date-time");
  ctx.env.store.setPixValor(pix.e2eid, b.valor === undefined ? pix.valor : valorOf(b.valor), horario);
  return { status: 200, body: { pix: pixView(ctx.env, ctx.env.store.pixByE2e(pix.e2eid)!) } };
}

function recordSend(ctx: ControlCtx): Reply {
  const b = body(ctx, ["valor", "chave", "horario"]);
  const client = clientOf(ctx);
  const valor = valorOf(b.valor);
  if (b.chave !== undefined && (typeof b.chave !== "string" || b.chave.length === 0 || b.chave.length > 77))
    throw simProblem("ControleInvalido", "chave must be 1-77 characters");
  const horario = b.horario === undefined ? ctx.env.clock.nowMs() : parseRfc3339(b.horario);
  if (horario === null) throw simProblem("ControleInvalido", "horario must be an RFC 3339 date-time");
  const row: SendRow = {
    client_id: client.client_id,
    id_envio: `sim${randomUUID().replace(/-/g, "")}`,
    e2eid: newEndToEndId(new Date(horario), SIM_PSP_ISPB),
    valor,
    pagador_chave: clientKeys(client)[0]!,
    info_pagador: null,
    favorecido: JSON.stringify({ chave: (b.chave as string | undefined) ?? randomUUID() }),
    status: "REALIZADO",
    erro: null,
    solicitacao_ms: horario,
    liquidacao_ms: horario,
  };
  ctx.env.store.tx(() => {
    ctx.env.store.insertSend(row);
    ctx.env.store.setBalance(client.client_id, balanceOf(ctx.env, client.client_id) - valor);
  });
  return { status: 201, body: { send: sendView(row) } };
}

function amendSend(ctx: ControlCtx): Reply {
  const b = body(ctx, ["valor"]);
  const row = findSend(ctx);
  ctx.env.store.setSendValor(row.client_id, row.id_envio, valorOf(b.valor));
  return { status: 200, body: { send: sendView(ctx.env.store.send(row.client_id, row.id_envio)!) } };
}

function openInfraction(ctx: ControlCtx): Reply {
  const b = body(ctx, ["endToEndId", "valor", "razao", "tipoSituacao"]);
  if (typeof b.endToEndId !== "string" || !/^[a-zA-Z0-9]{32}$/.test(b.endToEndId))
    throw simProblem("ControleInvalido", "endToEndId must be 32 letters or digits");
  if (b.razao !== undefined && (typeof b.razao !== "string" || b.razao.length > 500))
    throw simProblem("ControleInvalido", "razao must be at most 500 characters");
  if (
    b.tipoSituacao !== undefined &&
    (typeof b.tipoSituacao !== "string" || b.tipoSituacao.length === 0 || b.tipoSituacao.length > 60)
  )
    throw simProblem("ControleInvalido", "tipoSituacao must be 1-60 characters");
  const pix = ctx.env.store.pixByE2e(b.endToEndId);
  const client = pix ? ctx.env.store.client(pix.client_id)! : clientOf(ctx);
  const valor = b.valor === undefined ? (pix?.valor ?? null) : valorOf(b.valor);
  if (valor === null) throw simProblem("ControleInvalido", "valor is required for a Pix the simulator never received");
  const row = openInfracao(ctx.env, client, {
    e2eid: b.endToEndId,
    valor,
    razao: (b.razao as string | undefined) ?? "Pagador relata golpe (simulador)",
    tipoSituacao: (b.tipoSituacao as string | undefined) ?? "golpe",
  });
  return { status: 201, body: { infracao: infracaoView(row) } };
}

function endInfraction(to: "ACEITA" | "REJEITADA" | "CANCELADA_EFI"): Handler {
  return (ctx) => {
    body(ctx, []);
    const row = ctx.env.store.infracao(ctx.params.id!);
    if (!row) throw problem("NaoEncontrado", `Infração ${ctx.params.id} não encontrada.`);
    const next = endInfracao(ctx.env, row.id, to);
    if (!next) throw simProblem("EstadoInvalido", `infraction ${row.id} is ${row.status}`);
    return { status: 200, body: { infracao: infracaoView(next) } };
  };
}

export const RECONCILIATION_ROUTES: { method: string; path: string; handler: Handler }[] = [
  { method: "POST", path: "/_sim/pix/receive", handler: receive },
  { method: "POST", path: "/_sim/pix/:e2eid/amend", handler: amendPix },
  { method: "POST", path: "/_sim/sends/record", handler: recordSend },
  { method: "POST", path: "/_sim/sends/:idEnvio/amend", handler: amendSend },
  {
    method: "GET",
    path: "/_sim/infractions",
    handler: ({ env }) => ({
      status: 200,
      body: { infracoes: env.store.allInfracoes().map((r) => ({ client_id: r.client_id, ...infracaoView(r) })) },
    }),
  },
  { method: "POST", path: "/_sim/infractions", handler: openInfraction },
  { method: "POST", path: "/_sim/infractions/:id/accept", handler: endInfraction("ACEITA") },
  { method: "POST", path: "/_sim/infractions/:id/reject", handler: endInfraction("REJEITADA") },
  { method: "POST", path: "/_sim/infractions/:id/cancel", handler: endInfraction("CANCELADA_EFI") },
];
