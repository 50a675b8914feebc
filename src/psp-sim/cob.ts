/**
 * psp-sim `cob` (OpenAPI paths `/cob/{txid}`): `PUT` creates (or, while ATIVA, replaces) a cob
 * (`CobSolicitada` -> 201 `CobGerada`), `PATCH` revises it or removes it with
 * `status: REMOVIDA_PELO_USUARIO_RECEBEDOR` (`CobRevisada` -> 200 `CobGerada`), `GET` reads it
 * (200 `CobCompleta`, with `pix[]` once paid). Statuses (`CobrancaStatus`): ATIVA, CONCLUIDA,
 * REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP. Errors `CobOperacaoInvalida` /
 * `CobConsultaInvalida` (400) with `violacoes`, `CobNaoEncontrado` (404). `revisao` starts at 0
 * and grows by 1 on every change. `pixCopiaECola` is a dynamic BR Code (src/pix/brcode.ts)
 * pointing at the cob's `loc.location`. Locations (`/loc`) are not offered: a `loc` in a request
 * is refused as the standard's "location inexiste".
 */
import { randomUUID } from "node:crypto";
import { buildDynamicBrCode } from "../pix/brcode";
import { parseTaxId } from "../pix/tax-id";
import { type ApiCtx, type Reply, type SimEnv, clientKeys } from "./core";
import { isObject, parseValor, rfc3339, TXID_RE } from "./format";
import { pixView } from "./pix-view";
import { problem, Violations } from "./problems";
import type { ClientRow, CobRow } from "./store";

/** The client-editable part of a cob, as stored (`cobs.doc`). */
export interface CobDoc {
  expiracao: number;
  devedor?: { cpf?: string; cnpj?: string; nome: string };
  valor: { original: string; modalidadeAlteracao?: number };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
}

const DEFAULT_EXPIRACAO = 86_400;
const EDITABLE = ["calendario", "devedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais", "loc"] as const;

/** Parses the JSON body; a malformed one is `name` with a violation on the body. */
export function jsonBody(
  raw: string,
  name: "CobOperacaoInvalida" | "PixDevolucaoInvalida" | "WebhookOperacaoInvalida",
): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw problem(name, "O corpo da requisição não é um JSON válido.", [
      { razao: "JSON inválido", propriedade: "body" },
    ]);
  }
  if (!isObject(v))
    throw problem(name, "O corpo da requisição deve ser um objeto JSON.", [
      { razao: "objeto esperado", propriedade: "body" },
    ]);
  return v;
}

/** Validates the fields present in `body` (PUT: all required ones too) into `patch`. */
function readFields(body: Record<string, unknown>, client: ClientRow, put: boolean, v: Violations): Partial<CobDoc> {
  const out: Partial<CobDoc> = {};
  if (put)
    for (const f of ["calendario", "valor", "chave"] as const)
      if (body[f] === undefined) v.add(`cob.${f}`, `O campo cob.${f} é obrigatório.`);
  if (body.calendario !== undefined) {
    if (!isObject(body.calendario)) v.add("cob.calendario", "O objeto cob.calendario não respeita o schema.");
    else {
      const exp = body.calendario.expiracao;
      if (exp === undefined) out.expiracao = DEFAULT_EXPIRACAO;
      else if (typeof exp !== "number" || !Number.isInteger(exp) || exp > 2_147_483_647)
        v.add("cob.calendario.expiracao", "O campo cob.calendario.expiracao não respeita o schema.", exp);
      else if (exp <= 0)
        v.add("cob.calendario.expiracao", "O campo cob.calendario.expiracao é igual ou menor que zero.", exp);
      else out.expiracao = exp;
    }
  }
  if (body.valor !== undefined) {
    const val = body.valor;
    if (!isObject(val)) v.add("cob.valor", "O objeto cob.valor não respeita o schema.");
    else {
      const cents = parseValor(val.original);
      if (val.original === undefined && put) v.add("cob.valor.original", "O campo cob.valor.original é obrigatório.");
      else if (val.original !== undefined && cents === null)
        v.add("cob.valor.original", "O campo cob.valor.original não respeita o schema.", val.original);
      else if (cents === 0) v.add("cob.valor.original", "O campo cob.valor.original é zero.", val.original);
      const mod = val.modalidadeAlteracao;
      if (mod !== undefined && mod !== 0 && mod !== 1)
        v.add("cob.valor.modalidadeAlteracao", "O campo cob.valor.modalidadeAlteracao não respeita o schema.", mod);
      if (val.retirada !== undefined)
        v.add("cob.valor.retirada", "Pix Saque e Pix Troco não são oferecidos por este PSP.");
      out.valor = {
        original: typeof val.original === "string" ? val.original : "",
        ...(mod === 0 || mod === 1 ? { modalidadeAlteracao: mod } : {}),
      };
    }
  }
  if (body.chave !== undefined) {
    if (typeof body.chave !== "string" || body.chave.length === 0 || body.chave.length > 77)
      v.add("cob.chave", "O campo cob.chave não respeita o schema.", body.chave);
    else if (!clientKeys(client).includes(body.chave))
      v.add(
        "cob.chave",
        "O campo cob.chave corresponde a uma conta que não pertence a este usuário recebedor.",
        body.chave,
      );
    else out.chave = body.chave;
  }
  if (body.devedor !== undefined) {
    const d = body.devedor;
    if (!isObject(d)) v.add("cob.devedor", "O objeto cob.devedor não respeita o schema.");
    else {
      const ok = (doc: unknown, kind: "cpf" | "cnpj") => {
        const parsed = typeof doc === "string" ? parseTaxId(doc) : null;
        return parsed?.kind === kind && parsed.value === doc;
      };
      if (d.cpf !== undefined && d.cnpj !== undefined)
        v.add(
          "cob.devedor",
          "Os campos cob.devedor.cpf e cob.devedor.cnpj não podem estar preenchidos ao mesmo tempo.",
        );
      else if (d.cpf === undefined && d.cnpj === undefined)
        v.add("cob.devedor", "O objeto cob.devedor deve ter cpf ou cnpj.");
      else if (d.cpf !== undefined && !ok(d.cpf, "cpf"))
        v.add("cob.devedor.cpf", "O campo cob.devedor.cpf não é um CPF válido.", d.cpf);
      else if (d.cnpj !== undefined && !ok(d.cnpj, "cnpj"))
        v.add("cob.devedor.cnpj", "O campo cob.devedor.cnpj não é um CNPJ válido.", d.cnpj);
      if (typeof d.nome !== "string" || d.nome.trim() === "" || d.nome.length > 200)
        v.add("cob.devedor.nome", "O campo cob.devedor.nome não respeita o schema.", d.nome);
      out.devedor = {
        ...(d.cpf !== undefined ? { cpf: String(d.cpf) } : { cnpj: String(d.cnpj) }),
        nome: String(d.nome),
      };
    }
  }
  if (body.solicitacaoPagador !== undefined) {
    const s = body.solicitacaoPagador;
    if (typeof s !== "string" || s.length > 140)
      v.add("cob.solicitacaoPagador", "O campo solicitacaoPagador não respeita o schema.", s);
    else out.solicitacaoPagador = s;
  }
  if (body.infoAdicionais !== undefined) {
    const list = body.infoAdicionais;
    const good =
      Array.isArray(list) &&
      list.length <= 50 &&
      list.every(
        (i) =>
          isObject(i) &&
          typeof i.nome === "string" &&
          i.nome.length <= 50 &&
          typeof i.valor === "string" &&
          i.valor.length <= 200,
      );
    if (!good) v.add("cob.infoAdicionais", "O objeto infoAdicionais não respeita o schema.");
    else
      out.infoAdicionais = (list as { nome: string; valor: string }[]).map((i) => ({ nome: i.nome, valor: i.valor }));
  }
  if (body.loc !== undefined) v.add("cob.loc.id", "O location referenciado por loc.id inexiste.");
  return out;
}

function txidParam(ctx: ApiCtx, name: "CobOperacaoInvalida" | "CobConsultaInvalida"): string {
  const txid = ctx.params.txid!;
  if (!TXID_RE.test(txid))
    throw problem(name, "O txid não respeita o schema ([a-zA-Z0-9]{26,35}).", [
      { razao: "txid inválido", propriedade: "txid", valor: txid },
    ]);
  return txid;
}

/** `CobGerada` / `CobCompleta` of a stored cob. */
export function cobView(env: SimEnv, client: ClientRow, row: CobRow, withPix: boolean): Record<string, unknown> {
  const doc = JSON.parse(row.doc) as CobDoc;
  const loc = env.store.loc(row.loc_id)!;
  const fixed = doc.valor.modalidadeAlteracao !== 1;
  const pix = withPix ? env.store.pixOfCob(client.client_id, row.txid) : [];
  return {
    calendario: { criacao: rfc3339(row.created_ms), expiracao: doc.expiracao },
    txid: row.txid,
    revisao: row.revisao,
    loc: { id: loc.id, location: loc.location, tipoCob: "cob", criacao: rfc3339(loc.created_ms), txid: row.txid },
    location: loc.location,
    status: row.status,
    ...(doc.devedor ? { devedor: doc.devedor } : {}),
    valor: doc.valor,
    chave: doc.chave,
    ...(doc.solicitacaoPagador !== undefined ? { solicitacaoPagador: doc.solicitacaoPagador } : {}),
    ...(doc.infoAdicionais ? { infoAdicionais: doc.infoAdicionais } : {}),
    pixCopiaECola: buildDynamicBrCode({
      location: loc.location,
      merchantName: client.name,
      merchantCity: client.city,
      ...(fixed ? { amount: parseValor(doc.valor.original)! } : {}),
    }),
    ...(pix.length ? { pix: pix.map((p) => pixView(env, p)) } : {}),
  };
}

/** `PUT /cob/{txid}`: 201 `CobGerada`. Replaces an ATIVA cob (revisao + 1 when anything changed). */
export function putCob(ctx: ApiCtx): Reply {
  const txid = txidParam(ctx, "CobOperacaoInvalida");
  const body = jsonBody(ctx.rawBody, "CobOperacaoInvalida");
  const v = new Violations();
  const fields = readFields(body, ctx.client, true, v);
  v.throwIfAny(
    "CobOperacaoInvalida",
    "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o schema ou está semanticamente errada.",
  );
  const { store, clock } = ctx.env;
  const now = clock.nowMs();
  const doc: CobDoc = {
    expiracao: fields.expiracao ?? DEFAULT_EXPIRACAO,
    ...(fields.devedor ? { devedor: fields.devedor } : {}),
    valor: fields.valor!,
    chave: fields.chave!,
    ...(fields.solicitacaoPagador !== undefined ? { solicitacaoPagador: fields.solicitacaoPagador } : {}),
    ...(fields.infoAdicionais ? { infoAdicionais: fields.infoAdicionais } : {}),
  };
  const row = store.tx(() => {
    const existing = store.cob(ctx.client.client_id, txid);
    if (existing && existing.status !== "ATIVA")
      throw problem(
        "CobOperacaoInvalida",
        "A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.",
        [{ razao: `status ${existing.status}`, propriedade: "cob.status", valor: existing.status }],
      );
    if (existing) {
      const text = JSON.stringify(doc);
      if (text === existing.doc) return existing;
      const next: CobRow = { ...existing, doc: text, revisao: existing.revisao + 1, updated_ms: now };
      store.putCob(next);
      return next;
    }
    const loc = store.insertLoc(
      ctx.client.client_id,
      txid,
      `${ctx.env.locationBase}/qr/v2/${randomUUID().replaceAll("-", "")}`,
      now,
    );
    const created: CobRow = {
      client_id: ctx.client.client_id,
      txid,
      revisao: 0,
      status: "ATIVA",
      loc_id: loc.id,
      doc: JSON.stringify(doc),
      created_ms: now,
      updated_ms: now,
    };
    store.putCob(created);
    return created;
  });
  return { status: 201, body: cobView(ctx.env, ctx.client, row, false) };
}

/** `PATCH /cob/{txid}`: 200 `CobGerada`; only an ATIVA cob changes; removal comes alone. */
export function patchCob(ctx: ApiCtx): Reply {
  const txid = txidParam(ctx, "CobOperacaoInvalida");
  const body = jsonBody(ctx.rawBody, "CobOperacaoInvalida");
  const v = new Violations();
  const fields = readFields(body, ctx.client, false, v);
  const removing = body.status !== undefined;
  if (removing && body.status !== "REMOVIDA_PELO_USUARIO_RECEBEDOR")
    v.add("cob.status", "O campo cob.status não respeita o schema.", body.status);
  else if (removing && EDITABLE.some((f) => body[f] !== undefined))
    v.add("cob.status", "A cobrança não pode ser removida juntamente com outras alterações.");
  v.throwIfAny(
    "CobOperacaoInvalida",
    "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o schema ou está semanticamente errada.",
  );
  const { store, clock } = ctx.env;
  const row = store.tx(() => {
    const existing = store.cob(ctx.client.client_id, txid);
    if (!existing) throw problem("CobNaoEncontrado", `Cobrança não encontrada para o txid ${txid}.`);
    if (existing.status !== "ATIVA")
      throw problem("CobOperacaoInvalida", "A cobrança não está ATIVA, e a presente requisição busca alterá-la.", [
        { razao: `status ${existing.status}`, propriedade: "cob.status", valor: existing.status },
      ]);
    const doc = JSON.parse(existing.doc) as CobDoc;
    const next: CobDoc = {
      ...doc,
      ...(fields.expiracao !== undefined ? { expiracao: fields.expiracao } : {}),
      ...(fields.devedor ? { devedor: fields.devedor } : {}),
      ...(fields.valor
        ? {
            valor: {
              ...doc.valor,
              ...(fields.valor.original ? { original: fields.valor.original } : {}),
              ...(fields.valor.modalidadeAlteracao !== undefined
                ? { modalidadeAlteracao: fields.valor.modalidadeAlteracao }
                : {}),
            },
          }
        : {}),
      ...(fields.chave ? { chave: fields.chave } : {}),
      ...(fields.solicitacaoPagador !== undefined ? { solicitacaoPagador: fields.solicitacaoPagador } : {}),
      ...(fields.infoAdicionais ? { infoAdicionais: fields.infoAdicionais } : {}),
    };
    const text = JSON.stringify(next);
    const status = removing ? ("REMOVIDA_PELO_USUARIO_RECEBEDOR" as const) : existing.status;
    if (text === existing.doc && status === existing.status) return existing;
    const updated: CobRow = {
      ...existing,
      doc: text,
      status,
      revisao: existing.revisao + 1,
      updated_ms: clock.nowMs(),
    };
    store.putCob(updated);
    return updated;
  });
  return { status: 200, body: cobView(ctx.env, ctx.client, row, false) };
}

/** `GET /cob/{txid}[?revisao=N]`: 200 `CobCompleta`. Only the current revision is kept. */
export function getCob(ctx: ApiCtx): Reply {
  const txid = txidParam(ctx, "CobConsultaInvalida");
  const revisao = ctx.query.get("revisao");
  if (revisao !== null && !/^\d{1,9}$/.test(revisao))
    throw problem("CobConsultaInvalida", "O parâmetro revisao não respeita o schema.", [
      { razao: "inteiro esperado", propriedade: "revisao", valor: revisao },
    ]);
  const row = ctx.env.store.cob(ctx.client.client_id, txid);
  if (!row || (revisao !== null && Number(revisao) !== row.revisao))
    throw problem(
      "CobNaoEncontrado",
      revisao === null
        ? `Cobrança não encontrada para o txid ${txid}.`
        : `Revisão ${revisao} não encontrada (o simulador guarda só a revisão atual).`,
    );
  return { status: 200, body: cobView(ctx.env, ctx.client, row, true) };
}

/** Amount of a cob in centavos. */
export function cobAmount(row: CobRow): number {
  return parseValor((JSON.parse(row.doc) as CobDoc).valor.original)!;
}

/** The cob's receiving key. */
export function cobKey(row: CobRow): string {
  return (JSON.parse(row.doc) as CobDoc).chave;
}
