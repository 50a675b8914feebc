/**
 * psp-sim received Pix (OpenAPI `/pix/{e2eid}`, `/pix`): `GET /pix/{e2eid}` -> 200 `Pix` or 404
 * `PixNaoEncontrado`; `GET /pix?inicio=&fim=` -> 200 `PixConsultados` (`parametros` with
 * `paginacao`, `pix[]` oldest first; filters `txid`, `txIdPresente`, `devolucaoPresente`,
 * `cpf`/`cnpj` of the payer; `paginacao.paginaAtual` >= 0, `paginacao.itensPorPagina` 1-1000,
 * default 100), 400 `PixConsultaInvalida`. Also the simulated payment of a cob (control route).
 */
import { newEndToEndId } from "../pix/ids";
import { parseTaxId } from "../pix/tax-id";
import { cobKey } from "./cob";
import { type ApiCtx, type Reply, type SimEnv, SIM_PAYER_ISPB } from "./core";
import { CNPJ_RE, CPF_RE, E2E_RE, paginacao, parseRfc3339, rfc3339, TXID_FILTER_RE } from "./format";
import { pixView } from "./pix-view";
import { problem, simProblem, Violations } from "./problems";
import type { ClientRow, CobRow, PixRow } from "./store";

/** `GET /pix/{e2eid}`. */
export function getPix(ctx: ApiCtx): Reply {
  const e2eid = ctx.params.e2eid!;
  if (!E2E_RE.test(e2eid))
    throw problem("RequisicaoInvalida", "O e2eid não respeita o schema ([a-zA-Z0-9]{32}).", [
      { razao: "e2eid inválido", propriedade: "e2eid", valor: e2eid },
    ]);
  const row = ctx.env.store.pix(ctx.client.client_id, e2eid);
  if (!row) throw problem("PixNaoEncontrado", `Pix não encontrado para o e2eid ${e2eid}.`);
  return { status: 200, body: pixView(ctx.env, row) };
}

function bool(q: URLSearchParams, name: string, v: Violations): boolean | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (raw !== "true" && raw !== "false") v.add(name, `O parâmetro ${name} deve ser true ou false.`, raw);
  return raw === "true";
}

function int(q: URLSearchParams, name: string, min: number, max: number, dflt: number, v: Violations): number {
  const raw = q.get(name);
  if (raw === null) return dflt;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    v.add(name, `O parâmetro ${name} deve ser um inteiro entre ${min} e ${max}.`, raw);
  return Number(raw);
}

/** `GET /pix`. */
export function listPix(ctx: ApiCtx): Reply {
  const q = ctx.query;
  const v = new Violations();
  for (const [name, values] of groupKeys(q)) if (values > 1) v.add(name, `O parâmetro ${name} foi repetido.`);
  const inicio = parseRfc3339(q.get("inicio"));
  const fim = parseRfc3339(q.get("fim"));
  if (inicio === null)
    v.add("inicio", "O parâmetro inicio é obrigatório e deve respeitar a RFC 3339.", q.get("inicio") ?? undefined);
  if (fim === null)
    v.add("fim", "O parâmetro fim é obrigatório e deve respeitar a RFC 3339.", q.get("fim") ?? undefined);
  if (inicio !== null && fim !== null && fim < inicio)
    v.add(
      "fim",
      "O timestamp representado pelo parâmetro fim é anterior ao timestamp representado pelo parâmetro inicio.",
    );
  const txid = q.get("txid");
  if (txid !== null && !TXID_FILTER_RE.test(txid)) v.add("txid", "O parâmetro txid não respeita o schema.", txid);
  const txIdPresente = bool(q, "txIdPresente", v);
  const devolucaoPresente = bool(q, "devolucaoPresente", v);
  const cpf = q.get("cpf");
  const cnpj = q.get("cnpj");
  if (cpf !== null && cnpj !== null) v.add("cpf", "Ambos os parâmetros cpf e cnpj estão preenchidos.");
  if (cpf !== null && !CPF_RE.test(cpf)) v.add("cpf", "O parâmetro cpf não respeita o schema.", cpf);
  if (cnpj !== null && !CNPJ_RE.test(cnpj)) v.add("cnpj", "O parâmetro cnpj não respeita o schema.", cnpj);
  const pagina = int(q, "paginacao.paginaAtual", 0, 1_000_000, 0, v);
  const porPagina = int(q, "paginacao.itensPorPagina", 1, 1000, 100, v);
  v.throwIfAny(
    "PixConsultaInvalida",
    "Os parâmetros de consulta à lista de pix recebidos não respeitam o schema ou não fazem sentido semanticamente.",
  );

  const { store } = ctx.env;
  const all = store.pixBetween(ctx.client.client_id, inicio!, fim!).filter((p) => {
    if (txid !== null && p.txid !== txid) return false;
    if (txIdPresente !== undefined && (p.txid !== null) !== txIdPresente) return false;
    if (devolucaoPresente !== undefined && store.devolucoesOf(p.e2eid).length > 0 !== devolucaoPresente) return false;
    if (cpf !== null || cnpj !== null) {
      const payer = p.pagador ? (JSON.parse(p.pagador) as { cpf?: string; cnpj?: string }) : {};
      if (cpf !== null && payer.cpf !== cpf) return false;
      if (cnpj !== null && payer.cnpj !== cnpj) return false;
    }
    return true;
  });
  const page = all.slice(pagina * porPagina, (pagina + 1) * porPagina);
  return {
    status: 200,
    body: {
      parametros: {
        inicio: rfc3339(inicio!),
        fim: rfc3339(fim!),
        paginacao: paginacao(pagina, porPagina, all.length),
      },
      pix: page.map((p) => pixView(ctx.env, p)),
    },
  };
}

function groupKeys(q: URLSearchParams): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of q.keys()) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Input of a simulated payment (control route `POST /_sim/cob/{txid}/pay`). */
export interface PayInput {
  /** Centavos paid; default the cob's `valor.original`. Any positive amount is accepted. */
  valor: number;
  pagador?: { nome: string; cpf?: string; cnpj?: string };
  infoPagador?: string;
  /** When the Pix settled (epoch ms); default the clock's now. */
  horarioMs?: number;
}

/** Validates a control-route payer `{nome, cpf|cnpj}` (checksum-valid document). */
export function readPagador(raw: unknown): PayInput["pagador"] {
  if (raw === undefined) return undefined;
  const p = raw as Record<string, unknown>;
  if (typeof p !== "object" || p === null || typeof p.nome !== "string" || p.nome.trim() === "" || p.nome.length > 200)
    throw simProblem("ControleInvalido", "pagador must be {nome, cpf} or {nome, cnpj}");
  const doc = p.cpf ?? p.cnpj;
  const parsed = typeof doc === "string" ? parseTaxId(doc) : null;
  if (
    (p.cpf !== undefined) === (p.cnpj !== undefined) ||
    !parsed ||
    parsed.kind !== (p.cpf !== undefined ? "cpf" : "cnpj")
  )
    throw simProblem("ControleInvalido", "pagador needs exactly one valid cpf (11 digits) or cnpj (14 characters)");
  return { nome: p.nome, [parsed.kind]: parsed.value };
}

/** Pays an ATIVA cob: one Pix (CONCLUIDA cob) in one transaction. Throws 409 when not ATIVA. */
export function payCob(env: SimEnv, client: ClientRow, cob: CobRow, input: PayInput): PixRow {
  return env.store.tx(() => {
    const current = env.store.cob(client.client_id, cob.txid)!;
    if (current.status !== "ATIVA")
      throw simProblem("EstadoInvalido", `cob ${cob.txid} is ${current.status}; only an ATIVA cob can be paid`);
    const horario = input.horarioMs ?? env.clock.nowMs();
    const row: PixRow = {
      e2eid: newEndToEndId(new Date(horario), SIM_PAYER_ISPB),
      client_id: client.client_id,
      txid: cob.txid,
      valor: input.valor,
      chave: cobKey(current),
      horario_ms: horario,
      info_pagador: input.infoPagador ?? null,
      pagador: input.pagador ? JSON.stringify(input.pagador) : null,
    };
    env.store.insertPix(row);
    env.store.putCob({ ...current, status: "CONCLUIDA", updated_ms: env.clock.nowMs() });
    return row;
  });
}
