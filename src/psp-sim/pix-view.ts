/**
 * psp-sim views of received Pix (`components/schemas/Pix`) and devoluções (`Devolucao`).
 * `pagador` ({nome, cpf|cnpj}) is an extension several PSPs add: the standard's `Pix` has no
 * payer document, but `GET /pix` filters by the payer's `cpf`/`cnpj`.
 */
import type { SimEnv } from "./core";
import { formatValor, rfc3339 } from "./format";
import type { DevolucaoRow, PixRow } from "./store";

/** `Devolucao`. */
export function devolucaoView(d: DevolucaoRow): Record<string, unknown> {
  return {
    id: d.id,
    rtrId: d.rtr_id,
    valor: formatValor(d.valor),
    natureza: d.natureza,
    ...(d.descricao !== null ? { descricao: d.descricao } : {}),
    horario: {
      solicitacao: rfc3339(d.solicitacao_ms),
      ...(d.liquidacao_ms !== null ? { liquidacao: rfc3339(d.liquidacao_ms) } : {}),
    },
    status: d.status,
    ...(d.motivo !== null ? { motivo: d.motivo } : {}),
  };
}

/** `Pix`, with `devolucoes[]` when any was requested. */
export function pixView(env: SimEnv, p: PixRow): Record<string, unknown> {
  const devolucoes = env.store.devolucoesOf(p.e2eid);
  const valor = formatValor(p.valor);
  return {
    endToEndId: p.e2eid,
    ...(p.txid !== null ? { txid: p.txid } : {}),
    valor,
    componentesValor: { original: { valor } },
    chave: p.chave,
    horario: rfc3339(p.horario_ms),
    ...(p.info_pagador !== null ? { infoPagador: p.info_pagador } : {}),
    ...(p.pagador !== null ? { pagador: JSON.parse(p.pagador) } : {}),
    ...(devolucoes.length ? { devolucoes: devolucoes.map(devolucaoView) } : {}),
  };
}
