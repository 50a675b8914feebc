/**
 * psp-sim's Efí lists for reconciliation and live MED (extensions.md "Live MED from the PSP",
 * "Statement, exports and reconciliation"; fields from research/money-out.md "Efí MED"):
 *   GET  /v2/gn/pix/enviados?inicio&fim             (gn.pix.send.read) -> 200 {parametros {inicio, fim,
 *                                                   paginacao}, pix: [the by-id view]} sends requested
 *                                                   in the window, oldest first
 *   GET  /v2/gn/infracoes?inicio&fim                (gn.infractions.read) -> 200 {parametros, infracoes:
 *                                                   [{idInfracao, endToEndId, protocolo, dataTransacao,
 *                                                   valor (number, reais), chave, status, razao,
 *                                                   tipoSituacao, defesa?, dadosAnalise {abertura,
 *                                                   prazoFinalizacao, recebimentoDefesa?, finalizacao?},
 *                                                   criadoEm, atualizadoEm}]} created in the window
 *   POST /v2/gn/infracoes/{idInfracao}/defesa       (gn.infractions.write) {analise: "rejeitado"|"aceito",
 *                                                   justificativa (1-2000)} -> 200 no body; the infraction
 *                                                   goes EM_DEFESA ("rejeitado") or ACEITA ("aceito");
 *                                                   404 `infracao_nao_encontrada`, 400 `json_invalido`,
 *                                                   409 `infracao_status_invalido` (not ABERTA)
 * Windows: `inicio`/`fim` RFC 3339, required (400 `json_invalido`); `paginacao.paginaAtual` (from 0),
 * `paginacao.itensPorPagina` (1-1000, default 100). Infractions are opened, accepted, rejected or
 * cancelled by control routes (control.ts), and the analysis deadline is 7 days after opening.
 */
import { randomUUID } from "node:crypto";
import type { ApiCtx, Reply, SimEnv } from "./core";
import { EfiError, sendView } from "./efi";
import { isObject, paginacao, parseRfc3339, rfc3339 } from "./format";
import type { ClientRow, InfracaoRow, InfracaoStatus } from "./store";

/** Days Efí's analysis of an infraction may take (`prazoFinalizacao` after opening). */
export const INFRACTION_DEADLINE_DAYS = 7;

function windowOf(q: URLSearchParams): { inicio: number; fim: number; pagina: number; porPagina: number } {
  const inicio = parseRfc3339(q.get("inicio"));
  const fim = parseRfc3339(q.get("fim"));
  if (inicio === null || fim === null || fim < inicio)
    throw new EfiError(
      400,
      "json_invalido",
      "Os parâmetros inicio e fim são obrigatórios (RFC 3339) e fim não pode ser anterior a inicio.",
    );
  const int = (name: string, min: number, max: number, dflt: number) => {
    const raw = q.get(name);
    if (raw === null) return dflt;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new EfiError(400, "json_invalido", `O parâmetro ${name} deve ser um inteiro entre ${min} e ${max}.`);
    return Number(raw);
  };
  return {
    inicio,
    fim,
    pagina: int("paginacao.paginaAtual", 0, 1_000_000, 0),
    porPagina: int("paginacao.itensPorPagina", 1, 1000, 100),
  };
}

function paged<T>(w: ReturnType<typeof windowOf>, all: T[], field: string): Reply {
  return {
    status: 200,
    body: {
      parametros: {
        inicio: rfc3339(w.inicio),
        fim: rfc3339(w.fim),
        paginacao: paginacao(w.pagina, w.porPagina, all.length),
      },
      [field]: all.slice(w.pagina * w.porPagina, (w.pagina + 1) * w.porPagina),
    },
  };
}

/** `GET /v2/gn/pix/enviados?inicio&fim`. */
export function listSends(ctx: ApiCtx): Reply {
  const w = windowOf(ctx.query);
  return paged(w, ctx.env.store.sendsBetween(ctx.client.client_id, w.inicio, w.fim).map(sendView), "pix");
}

/** An infraction as Efí lists it. */
export function infracaoView(r: InfracaoRow) {
  const defesa = r.defesa
    ? (JSON.parse(r.defesa) as { analise: string; justificativa: string; recebidaEm: number })
    : null;
  return {
    idInfracao: r.id,
    endToEndId: r.e2eid,
    protocolo: `PROT${r.id.replace(/-/g, "").slice(0, 12).toUpperCase()}`,
    dataTransacao: rfc3339(r.criado_ms),
    valor: r.valor / 100,
    status: r.status,
    razao: r.razao,
    tipoSituacao: r.tipo_situacao,
    ...(defesa ? { defesa: defesa.justificativa } : {}),
    dadosAnalise: {
      abertura: rfc3339(r.criado_ms),
      prazoFinalizacao: rfc3339(r.prazo_ms),
      ...(defesa ? { recebimentoDefesa: rfc3339(defesa.recebidaEm) } : {}),
      ...(r.finalizacao_ms !== null ? { finalizacao: rfc3339(r.finalizacao_ms) } : {}),
    },
    criadoEm: rfc3339(r.criado_ms),
    atualizadoEm: rfc3339(r.atualizado_ms),
  };
}

/** `GET /v2/gn/infracoes?inicio&fim`. */
export function listInfracoes(ctx: ApiCtx): Reply {
  const w = windowOf(ctx.query);
  return paged(w, ctx.env.store.infracoesBetween(ctx.client.client_id, w.inicio, w.fim).map(infracaoView), "infracoes");
}

/** `POST /v2/gn/infracoes/{idInfracao}/defesa`. */
export function postDefesa(ctx: ApiCtx): Reply {
  const { store, clock } = ctx.env;
  const row = store.infracao(ctx.params.idInfracao!);
  if (!row || row.client_id !== ctx.client.client_id)
    throw new EfiError(404, "infracao_nao_encontrada", "Infração não encontrada.");
  let body: unknown;
  try {
    body = JSON.parse(ctx.rawBody);
  } catch {
    throw new EfiError(400, "json_invalido", "O corpo da requisição não é um JSON válido.");
  }
  if (
    !isObject(body) ||
    (body.analise !== "rejeitado" && body.analise !== "aceito") ||
    typeof body.justificativa !== "string" ||
    body.justificativa.length < 1 ||
    body.justificativa.length > 2000
  )
    throw new EfiError(
      400,
      "json_invalido",
      'Informe analise ("rejeitado" ou "aceito") e justificativa (1 a 2000 caracteres).',
    );
  if (row.status !== "ABERTA")
    throw new EfiError(
      409,
      "infracao_status_invalido",
      `A infração está ${row.status}; só uma infração ABERTA recebe defesa.`,
    );
  const now = clock.nowMs();
  const defesa = JSON.stringify({ analise: body.analise, justificativa: body.justificativa, recebidaEm: now });
  const to: InfracaoStatus = body.analise === "aceito" ? "ACEITA" : "EM_DEFESA";
  store.updateInfracao(row.id, to, defesa, now, to === "ACEITA" ? now : null);
  return { status: 200 };
}

/** Opens an infraction (control route) on Pix `e2eid` of `client`. */
export function openInfracao(
  env: SimEnv,
  client: ClientRow,
  input: { e2eid: string; valor: number; razao: string | null; tipoSituacao: string },
): InfracaoRow {
  const now = env.clock.nowMs();
  const row: InfracaoRow = {
    id: randomUUID(),
    client_id: client.client_id,
    e2eid: input.e2eid,
    valor: input.valor,
    status: "ABERTA",
    razao: input.razao,
    tipo_situacao: input.tipoSituacao,
    defesa: null,
    criado_ms: now,
    atualizado_ms: now,
    prazo_ms: now + INFRACTION_DEADLINE_DAYS * 86_400_000,
    finalizacao_ms: null,
  };
  env.store.insertInfracao(row);
  return row;
}

/** Ends an infraction (control route): ACEITA, REJEITADA or CANCELADA_EFI; null when already final. */
export function endInfracao(env: SimEnv, id: string, to: "ACEITA" | "REJEITADA" | "CANCELADA_EFI"): InfracaoRow | null {
  return env.store.tx(() => {
    const row = env.store.infracao(id);
    if (!row || (row.status !== "ABERTA" && row.status !== "EM_DEFESA")) return null;
    const now = env.clock.nowMs();
    env.store.updateInfracao(id, to, row.defesa, now, now);
    return env.store.infracao(id);
  });
}
