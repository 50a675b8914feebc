/**
 * psp-sim devolução (OpenAPI `/pix/{e2eid}/devolucao/{id}`): `PUT` (`DevolucaoSolicitada`
 * `{valor, natureza?, descricao?}`) -> 201 `Devolucao` EM_PROCESSAMENTO; `GET` -> 200 `Devolucao`.
 * A replay of the same id with the same body answers the same devolução (same `rtrId`), as
 * bacen/pix-api#277 asks; the same id with another body is 400. The sum of the devoluções not
 * NAO_REALIZADO may not exceed the Pix; the window is 90 days from the Pix (the standard's
 * `PixDevolucaoInvalida` violations). A devolução ends DEVOLVIDO or NAO_REALIZADO through a
 * control route (or `--auto-settle`), which also fires the `{webhookUrl}/pix` callback.
 */
import { newDevolutionId } from "../pix/ids";
import { jsonBody } from "./cob";
import { type ApiCtx, type Reply, type SimEnv, SIM_PSP_ISPB } from "./core";
import { DEVOLUCAO_ID_RE, E2E_RE, parseValor } from "./format";
import { devolucaoView } from "./pix-view";
import { problem, simProblem, Violations } from "./problems";
import type { DevolucaoRow, PixRow } from "./store";

const WINDOW_MS = 90 * 86_400_000;

function pathPix(ctx: ApiCtx, name: "PixDevolucaoInvalida" | "RequisicaoInvalida"): { pix: PixRow; id: string } {
  const { e2eid, id } = ctx.params as { e2eid: string; id: string };
  const v = new Violations();
  if (!E2E_RE.test(e2eid)) v.add("e2eid", "O e2eid não respeita o schema ([a-zA-Z0-9]{32}).", e2eid);
  if (!DEVOLUCAO_ID_RE.test(id)) v.add("id", "O id da devolução não respeita o schema ([a-zA-Z0-9]{1,35}).", id);
  v.throwIfAny(name, "Parâmetros de caminho inválidos.");
  const pix = ctx.env.store.pix(ctx.client.client_id, e2eid);
  if (!pix) throw problem("PixNaoEncontrado", `Pix não encontrado para o e2eid ${e2eid}.`);
  return { pix, id };
}

/** `PUT /pix/{e2eid}/devolucao/{id}`. */
export function putDevolucao(ctx: ApiCtx): Reply {
  const { pix, id } = pathPix(ctx, "PixDevolucaoInvalida");
  const body = jsonBody(ctx.rawBody, "PixDevolucaoInvalida");
  const v = new Violations();
  const valor = parseValor(body.valor);
  if (body.valor === undefined) v.add("devolucao.valor", "O campo devolucao.valor é obrigatório.");
  else if (valor === null || valor === 0)
    v.add("devolucao.valor", "O campo devolucao.valor não respeita o schema.", body.valor);
  const natureza = (body.natureza ?? "ORIGINAL") as string;
  if (natureza === "RETIRADA")
    v.add("devolucao.natureza", "A natureza RETIRADA só se aplica a Pix Saque ou Pix Troco.", natureza);
  else if (natureza !== "ORIGINAL")
    v.add("devolucao.natureza", "O campo devolucao.natureza não respeita o schema.", natureza);
  if (body.descricao !== undefined && (typeof body.descricao !== "string" || body.descricao.length > 140))
    v.add("devolucao.descricao", "O campo devolucao.descricao não respeita o schema.", body.descricao);
  v.throwIfAny(
    "PixDevolucaoInvalida",
    "A presente requisição de devolução não respeita o schema ou não faz sentido semanticamente.",
  );

  const { store, clock } = ctx.env;
  const descricao = typeof body.descricao === "string" ? body.descricao : null;
  const row = store.tx(() => {
    const existing = store.devolucao(pix.e2eid, id);
    if (existing) {
      if (existing.valor === valor && existing.natureza === natureza && existing.descricao === descricao)
        return existing;
      throw problem(
        "PixDevolucaoInvalida",
        "A presente requisição de devolução apresenta um id já utilizado por outra requisição de devolução para o e2eid em questão.",
        [{ razao: "id já utilizado", propriedade: "id", valor: id }],
      );
    }
    const now = clock.nowMs();
    if (now - pix.horario_ms > WINDOW_MS)
      throw problem("PixDevolucaoInvalida", "A devolução viola a janela de 90 dias desde a liquidação do Pix.", [
        { razao: "fora da janela", propriedade: "e2eid", valor: pix.e2eid },
      ]);
    const used = store.devolucoesOf(pix.e2eid).reduce((s, d) => s + (d.status === "NAO_REALIZADO" ? 0 : d.valor), 0);
    if (used + valor! > pix.valor)
      throw problem(
        "PixDevolucaoInvalida",
        "A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.",
        [{ razao: "valor acima do disponível", propriedade: "devolucao.valor", valor: String(body.valor) }],
      );
    const created: DevolucaoRow = {
      e2eid: pix.e2eid,
      id,
      rtr_id: newDevolutionId(new Date(now), SIM_PSP_ISPB),
      valor: valor!,
      natureza,
      descricao,
      status: "EM_PROCESSAMENTO",
      motivo: null,
      solicitacao_ms: now,
      liquidacao_ms: null,
    };
    store.insertDevolucao(created);
    if (ctx.env.autoSettle) ctx.env.background(async () => finishDevolucao(ctx.env, pix, id, "DEVOLVIDO", null));
    return created;
  });
  return { status: 201, body: devolucaoView(row) };
}

/** `GET /pix/{e2eid}/devolucao/{id}`. */
export function getDevolucao(ctx: ApiCtx): Reply {
  const { pix, id } = pathPix(ctx, "RequisicaoInvalida");
  const row = ctx.env.store.devolucao(pix.e2eid, id);
  if (!row) throw problem("PixDevolucaoNaoEncontrada", `Devolução ${id} não encontrada para o e2eid ${pix.e2eid}.`);
  return { status: 200, body: devolucaoView(row) };
}

/**
 * Ends an EM_PROCESSAMENTO devolução as DEVOLVIDO (liquidacao = now) or NAO_REALIZADO (`motivo`)
 * in one transaction. Throws 404 `PixDevolucaoNaoEncontrada` / 409 `EstadoInvalido`.
 */
export function endDevolucao(
  env: SimEnv,
  pix: PixRow,
  id: string,
  status: "DEVOLVIDO" | "NAO_REALIZADO",
  motivo: string | null,
): void {
  env.store.tx(() => {
    const row = env.store.devolucao(pix.e2eid, id);
    if (!row) throw problem("PixDevolucaoNaoEncontrada", `Devolução ${id} não encontrada para o e2eid ${pix.e2eid}.`);
    if (row.status !== "EM_PROCESSAMENTO")
      throw simProblem("EstadoInvalido", `devolução ${id} is already ${row.status}`);
    env.store.finishDevolucao(pix.e2eid, id, status, motivo, status === "DEVOLVIDO" ? env.clock.nowMs() : null);
  });
}

/** `endDevolucao`, then the callback (the Pix with its `devolucoes`). */
export async function finishDevolucao(
  env: SimEnv,
  pix: PixRow,
  id: string,
  status: "DEVOLVIDO" | "NAO_REALIZADO",
  motivo: string | null,
) {
  endDevolucao(env, pix, id, status, motivo);
  return env.callbacks.notifyPix(pix.client_id, pix.e2eid);
}
