/**
 * psp-sim webhook registration (OpenAPI `/webhook/{chave}`, `/webhook`): `PUT` `{webhookUrl}`
 * (`WebhookSolicitado`; http or https URL) -> 200 without body; `GET` -> 200 `WebhookCompleto`
 * `{webhookUrl, chave, cnpj, criacao}`; `DELETE` -> 204; `GET /webhook` -> 200
 * `WebhooksConsultados`. `{chave}` must be one of the client's keys (400
 * `WebhookOperacaoInvalida`); unknown registration 404 `WebhookNaoEncontrado`.
 */
import { jsonBody } from "./cob";
import { type ApiCtx, type Reply, clientKeys } from "./core";
import { paginacao, parseRfc3339, rfc3339 } from "./format";
import { problem, Violations } from "./problems";
import type { WebhookRow } from "./store";

function view(row: WebhookRow, cnpj: string) {
  return { webhookUrl: row.url, chave: row.chave, cnpj, criacao: rfc3339(row.created_ms) };
}

/** `PUT /webhook/{chave}`. */
export function putWebhook(ctx: ApiCtx): Reply {
  const chave = ctx.params.chave!;
  const body = jsonBody(ctx.rawBody, "WebhookOperacaoInvalida");
  const v = new Violations();
  if (chave.length > 77 || !clientKeys(ctx.client).includes(chave))
    v.add("chave", "O parâmetro chave não corresponde a uma chave DICT pertencente a este usuário recebedor.", chave);
  const url = body.webhookUrl;
  let ok = false;
  if (typeof url === "string") {
    try {
      const u = new URL(url);
      ok = (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
    } catch {
      ok = false;
    }
  }
  if (!ok) v.add("webhookUrl", "Campo webhook.webhookUrl não respeita o schema.", url);
  v.throwIfAny(
    "WebhookOperacaoInvalida",
    "A presente requisição busca criar um webhook sem respeitar o schema ou, ainda, com sentido semanticamente inválido.",
  );
  ctx.env.store.putWebhook({
    client_id: ctx.client.client_id,
    chave,
    url: url as string,
    created_ms: ctx.env.clock.nowMs(),
  });
  return { status: 200 };
}

/** `GET /webhook/{chave}`. */
export function getWebhook(ctx: ApiCtx): Reply {
  const row = ctx.env.store.webhook(ctx.client.client_id, ctx.params.chave!);
  if (!row) throw problem("WebhookNaoEncontrado", "O webhook denotado por chave não encontra-se estabelecido.");
  return { status: 200, body: view(row, ctx.client.cnpj) };
}

/** `DELETE /webhook/{chave}`. */
export function deleteWebhook(ctx: ApiCtx): Reply {
  if (!ctx.env.store.deleteWebhook(ctx.client.client_id, ctx.params.chave!))
    throw problem("WebhookNaoEncontrado", "O webhook denotado por chave não encontra-se estabelecido.");
  return { status: 204 };
}

/** `GET /webhook[?inicio&fim&paginacao.*]`. */
export function listWebhooks(ctx: ApiCtx): Reply {
  const q = ctx.query;
  const v = new Violations();
  const inicio = q.get("inicio") === null ? null : parseRfc3339(q.get("inicio"));
  const fim = q.get("fim") === null ? null : parseRfc3339(q.get("fim"));
  if (q.get("inicio") !== null && inicio === null)
    v.add("inicio", "O parâmetro inicio deve respeitar a RFC 3339.", q.get("inicio")!);
  if (q.get("fim") !== null && fim === null) v.add("fim", "O parâmetro fim deve respeitar a RFC 3339.", q.get("fim")!);
  if (inicio !== null && fim !== null && fim < inicio) v.add("fim", "O parâmetro fim é anterior ao parâmetro inicio.");
  const pagina = Number(q.get("paginacao.paginaAtual") ?? 0);
  const porPagina = Number(q.get("paginacao.itensPorPagina") ?? 100);
  if (!Number.isInteger(pagina) || pagina < 0)
    v.add("paginacao.paginaAtual", "O parâmetro paginacao.paginaAtual é negativo ou inválido.");
  if (!Number.isInteger(porPagina) || porPagina < 1 || porPagina > 1000)
    v.add("paginacao.itensPorPagina", "O parâmetro paginacao.itensPorPagina deve estar entre 1 e 1000.");
  v.throwIfAny(
    "WebhookConsultaInvalida",
    "Os parâmetros de consulta à lista de webhooks ativados não respeitam o schema ou não fazem sentido semanticamente.",
  );
  const all = ctx.env.store
    .webhooksOf(ctx.client.client_id)
    .filter((w) => (inicio === null || w.created_ms >= inicio) && (fim === null || w.created_ms <= fim));
  return {
    status: 200,
    body: {
      parametros: {
        ...(inicio !== null ? { inicio: rfc3339(inicio) } : {}),
        ...(fim !== null ? { fim: rfc3339(fim) } : {}),
        paginacao: paginacao(pagina, porPagina, all.length),
      },
      webhooks: all.slice(pagina * porPagina, (pagina + 1) * porPagina).map((w) => view(w, ctx.client.cnpj)),
    },
  };
}
