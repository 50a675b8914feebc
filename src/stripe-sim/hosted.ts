/**
 * stripe-sim hosted pages (pt-BR, inline CSS, no script or external asset; plain HTML forms so
 * they work in any browser): the Checkout page `GET|POST /pay/:id` (card form; a boleto form too
 * when the session offers boleto), the 3-D Secure step `GET|POST /pay/:id/3ds`, and the boleto
 * voucher `GET /boleto/:pi` / `GET /boleto/:pi.pdf`. Card rules in cards.ts; a paid session
 * redirects (303) to `success_url` with `{CHECKOUT_SESSION_ID}` replaced.
 */
import { readCard } from "./cards";
import { attemptCard, sessionWithExtra } from "./checkout";
import { type Reply, type SimEnv, nowSec } from "./core";
import type { Params } from "./form";
import type { SessionDoc } from "./objects";
import { type BillingInput, paymentIntent, type PaymentIntentDoc } from "./payment-objects";
import { boletoNextAction } from "./payment-intents";
import { type PiExtra, piWithExtra } from "./payments";
import { emit } from "./webhooks";
import { voucherPdf } from "./voucher-pdf";

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function reais(centavos: number): string {
  const s = (centavos / 100).toFixed(2).replace(".", ",");
  return `R$ ${s.replace(/\B(?=(\d{3})+(?!\d))/g, ".")}`;
}

const CSS = `body{font-family:system-ui,sans-serif;background:#f6f8fa;margin:0;color:#1a1f36}
main{max-width:420px;margin:40px auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px #0002}
h1{font-size:20px;margin:0 0 4px}.amount{font-size:28px;font-weight:600;margin:8px 0 16px}
label{display:block;font-size:13px;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #ccd;border-radius:4px;font-size:15px}
.row{display:flex;gap:8px}.row>div{flex:1}button{margin-top:16px;width:100%;padding:12px;border:0;border-radius:4px;background:#635bff;color:#fff;font-size:16px;cursor:pointer}
button.secondary{background:#4f566b}.error{background:#fde8e8;color:#9b1c1c;padding:10px;border-radius:4px;margin:12px 0}
.note{font-size:12px;color:#697386;margin-top:16px}.sim{font-size:11px;color:#5e6673;text-align:center;margin-top:12px}hr{border:0;border-top:1px solid #e3e8ee;margin:20px 0}
code{word-break:break-all}`;

function page(title: string, body: string, status = 200): Reply {
  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body><main>${body}<p class="sim">Simulador Stripe (cofre stripe-sim) — nenhum dado de cartão real.</p></main></body></html>`;
  return { status, text: html, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } };
}

function redirect(location: string): Reply {
  return { status: 303, text: "", headers: { location, "cache-control": "no-store" } };
}

function successTarget(s: SessionDoc): string {
  return (s.success_url ?? "/").replace("{CHECKOUT_SESSION_ID}", s.id);
}

function header(s: SessionDoc): string {
  return `<h1>Pagamento</h1><div class="amount" data-amount="${s.amount_total}">${esc(reais(s.amount_total ?? 0))}</div>`;
}

function cardForm(
  s: SessionDoc,
  error?: string,
  values: { name?: string; number?: string; exp?: string } = {},
): string {
  return `${error ? `<div class="error" role="alert">${esc(error)}</div>` : ""}
<form method="post" action="/pay/${esc(s.id)}" id="card-form">
<input type="hidden" name="method" value="card">
<label for="number">Número do cartão</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" value="${esc(values.number ?? "")}" required>
<div class="row"><div><label for="exp">Validade (MM/AA)</label><input id="exp" name="exp" autocomplete="cc-exp" placeholder="12/34" value="${esc(values.exp ?? "")}" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div></div>
<label for="name">Nome no cartão</label><input id="name" name="name" autocomplete="cc-name" value="${esc(values.name ?? "")}">
<button type="submit" id="pay">Pagar ${esc(reais(s.amount_total ?? 0))}</button></form>`;
}

function boletoForm(s: SessionDoc, error?: string): string {
  if (!s.payment_method_types.includes("boleto")) return "";
  const f = (id: string, label: string, extra = "") =>
    `<label for="b-${id}">${label}</label><input id="b-${id}" name="${id}" ${extra} required>`;
  return `<hr><h1>Boleto</h1>${error ? `<div class="error" role="alert">${esc(error)}</div>` : ""}
<form method="post" action="/pay/${esc(s.id)}" id="boleto-form"><input type="hidden" name="method" value="boleto">
${f("name", "Nome completo")}${f("email", "E-mail", 'type="email"')}${f("tax_id", "CPF ou CNPJ", 'inputmode="numeric"')}
${f("line1", "Endereço")}<div class="row"><div>${f("city", "Cidade")}</div><div>${f("state", "UF", 'maxlength="2"')}</div></div>${f("postal_code", "CEP", 'inputmode="numeric"')}
<button type="submit" id="boleto">Gerar boleto</button></form>`;
}

function cancelLink(s: SessionDoc): string {
  return s.cancel_url
    ? `<p class="note"><a href="${esc(s.cancel_url)}" id="cancel">Cancelar e voltar à loja</a></p>`
    : "";
}

function openPage(
  s: SessionDoc,
  opts: {
    cardError?: string;
    boletoError?: string;
    values?: { name?: string; number?: string; exp?: string };
    status?: number;
  } = {},
): Reply {
  return page(
    "Pagamento",
    `${header(s)}${cardForm(s, opts.cardError, opts.values)}${boletoForm(s, opts.boletoError)}
<p class="note">Cartões de teste: 4242 4242 4242 4242 aprova; 4000 0000 0000 0002 é recusado; 4000 0000 0000 0259 aprova e abre uma contestação; 4000 0027 6000 3184 pede 3-D Secure.</p>${cancelLink(s)}`,
    opts.status,
  );
}

function closedPage(s: SessionDoc): Reply {
  if (s.status === "expired")
    return page(
      "Sessão expirada",
      `${header(s)}<p id="expired">Esta sessão de pagamento expirou.</p>${cancelLink(s)}`,
      410,
    );
  const back = `<p><a href="${esc(successTarget(s))}" id="back">Voltar à loja</a></p>`;
  return page("Pagamento concluído", `${header(s)}<p id="complete">Pagamento já concluído.</p>${back}`);
}

/** `GET /pay/:id`. */
export function getPayPage(env: SimEnv, id: string): Reply {
  const found = sessionWithExtra(env, id);
  if (!found) return page("Não encontrado", "<p>Sessão de pagamento não encontrada.</p>", 404);
  if (found.doc.status !== "open") return closedPage(found.doc);
  if (found.doc.expires_at <= nowSec(env))
    return page("Sessão expirada", `${header(found.doc)}<p id="expired">Esta sessão de pagamento expirou.</p>`, 410);
  return openPage(found.doc);
}

/** `POST /pay/:id` (form `method=card|boleto`). */
export function postPayPage(env: SimEnv, id: string, form: Params): Reply {
  const found = sessionWithExtra(env, id);
  if (!found) return page("Não encontrado", "<p>Sessão de pagamento não encontrada.</p>", 404);
  const s = found.doc;
  if (s.status !== "open") return closedPage(s);
  if (s.expires_at <= nowSec(env))
    return page("Sessão expirada", `${header(s)}<p id="expired">Esta sessão de pagamento expirou.</p>`, 410);
  if (form.str("method") === "boleto") return postBoleto(env, s, found.account, form);
  if (!s.payment_method_types.includes("card"))
    return openPage(s, { cardError: "Esta sessão não aceita cartão.", status: 400 });
  const values = { name: form.str("name") ?? "", number: form.str("number") ?? "", exp: form.str("exp") ?? "" };
  const read = readCard({ number: values.number, exp: values.exp, cvc: form.str("cvc") ?? "" }, env.clock.nowMs());
  if ("error" in read) return openPage(s, { cardError: read.error, values, status: 400 });
  const outcome = attemptCard(env, id, read.card, read.behaviour);
  if (outcome.kind === "paid") return redirect(successTarget(outcome.session));
  if (outcome.kind === "3ds") return redirect(`/pay/${id}/3ds`);
  return openPage(sessionWithExtra(env, id)!.doc, { cardError: outcome.message });
}

/** `GET /pay/:id/3ds`. */
export function get3dsPage(env: SimEnv, id: string): Reply {
  const found = sessionWithExtra(env, id);
  if (!found) return page("Não encontrado", "<p>Sessão de pagamento não encontrada.</p>", 404);
  if (found.doc.status !== "open") return closedPage(found.doc);
  if (!found.extra.pending_3ds) return redirect(`/pay/${id}`);
  const card = found.extra.pending_3ds;
  return page(
    "Autenticação 3-D Secure",
    `<h1>Autenticação 3-D Secure</h1><p id="challenge">O banco emissor pede a confirmação desta compra de ${esc(reais(found.doc.amount_total ?? 0))} com o cartão terminado em ${esc(card.last4)}.</p>
<form method="post" action="/pay/${esc(id)}/3ds"><input type="hidden" name="action" value="approve"><button type="submit" id="approve">Autorizar</button></form>
<form method="post" action="/pay/${esc(id)}/3ds"><input type="hidden" name="action" value="fail"><button type="submit" class="secondary" id="fail">Falhar autenticação</button></form>`,
  );
}

/** `POST /pay/:id/3ds` (`action=approve|fail`). */
export function post3dsPage(env: SimEnv, id: string, form: Params): Reply {
  const found = sessionWithExtra(env, id);
  if (!found) return page("Não encontrado", "<p>Sessão de pagamento não encontrada.</p>", 404);
  if (found.doc.status !== "open") return closedPage(found.doc);
  const card = found.extra.pending_3ds;
  if (!card) return redirect(`/pay/${id}`);
  const action = form.str("action");
  if (action !== "approve" && action !== "fail") return get3dsPage(env, id);
  const outcome = attemptCard(env, id, card, "3ds", action === "approve");
  if (outcome.kind === "paid") return redirect(successTarget(outcome.session));
  return openPage(sessionWithExtra(env, id)!.doc, {
    cardError: outcome.kind === "declined" ? outcome.message : "Falha.",
  });
}

function postBoleto(env: SimEnv, s: SessionDoc, account: string, form: Params): Reply {
  if (!s.payment_method_types.includes("boleto"))
    return openPage(s, { cardError: "Esta sessão não aceita boleto.", status: 400 });
  const get = (k: string) => (form.str(k) ?? "").trim();
  const taxId = get("tax_id").replace(/\D/g, "");
  const missingField = ["name", "email", "tax_id", "line1", "city", "state", "postal_code"].find((k) => get(k) === "");
  if (missingField) return openPage(s, { boletoError: "Preencha todos os campos do boleto.", status: 400 });
  if (taxId.length !== 11 && taxId.length !== 14)
    return openPage(s, { boletoError: "CPF ou CNPJ inválido.", status: 400 });
  const payer: BillingInput = {
    name: get("name"),
    email: get("email"),
    address: {
      line1: get("line1"),
      line2: null,
      city: get("city"),
      state: get("state").toUpperCase(),
      postal_code: get("postal_code"),
      country: "BR",
    },
    tax_id: taxId,
  };
  const extraS = sessionWithExtra(env, s.id)!.extra;
  const base = s.payment_intent ? piWithExtra(env, s.payment_intent)?.doc : undefined;
  const pi: PaymentIntentDoc =
    base ??
    paymentIntent({
      amount: s.amount_total ?? 0,
      currency: "brl",
      payment_method_types: ["boleto"],
      metadata: extraS.pi_data?.metadata ?? {},
      description: extraS.pi_data?.description ?? null,
      created: nowSec(env),
      receipt_email: payer.email,
    });
  const next: PaymentIntentDoc = {
    ...pi,
    payment_method_types: ["boleto"],
    status: "requires_action",
    payment_method: `pm_${pi.id.slice(3, 27)}`,
    next_action: boletoNextAction(env, pi, 3),
    last_payment_error: null,
  };
  const piExtra: PiExtra = { session: s.id, boleto: payer };
  const done: SessionDoc = {
    ...s,
    payment_intent: pi.id,
    status: "complete",
    payment_status: "unpaid",
    url: null,
    customer_details: {
      address: { ...payer.address },
      business_name: null,
      email: payer.email,
      individual_name: null,
      name: payer.name,
      phone: null,
      tax_exempt: "none",
      tax_ids: [],
    },
  };
  env.store.tx(() => {
    if (base) env.store.update(next, piExtra);
    else env.store.insert(account, "payment_intent", next, piExtra);
    env.store.setDeadline(next.id, next.next_action!.boleto_display_details!.expires_at!);
    env.store.update(done);
    env.store.setDeadline(done.id, null);
  });
  emit(env, account, "checkout.session.completed", done);
  return redirect(`/boleto/${pi.id}?return=${encodeURIComponent(successTarget(done))}`);
}

/** `GET /boleto/:pi` (HTML voucher) and `GET /boleto/:pi.pdf`. */
export function voucher(env: SimEnv, id: string, pdf: boolean, returnUrl: string | null): Reply {
  const found = piWithExtra(env, id);
  const details = found?.doc.next_action?.boleto_display_details;
  if (!found?.extra.boleto) return page("Não encontrado", "<p>Boleto não encontrado.</p>", 404);
  const pi = found.doc;
  const payer = found.extra.boleto;
  const line = details?.number ?? "";
  const due = details?.expires_at
    ? new Date(details.expires_at * 1000 - 3 * 3_600_000).toISOString().slice(0, 10).split("-").reverse().join("/")
    : "";
  const status =
    pi.status === "succeeded"
      ? "Pago"
      : pi.status === "requires_action"
        ? "Aguardando pagamento"
        : "Vencido ou cancelado";
  if (pdf)
    return {
      status: 200,
      text: voucherPdf("Boleto (simulado)", [
        `Valor: ${reais(pi.amount)}`,
        `Vencimento: ${due}`,
        `Pagador: ${payer.name} (${payer.tax_id})`,
        `Linha digitavel: ${line}`,
        `Situacao: ${status}`,
        `Referencia: ${pi.id}`,
      ]),
      headers: { "content-type": "application/pdf", "content-disposition": `inline; filename="boleto-${pi.id}.pdf"` },
    };
  return page(
    "Boleto",
    `<h1>Boleto</h1><div class="amount">${esc(reais(pi.amount))}</div><p>Vencimento: <b id="due">${esc(due)}</b></p><p>Pagador: ${esc(payer.name)}</p>
<p>Linha digitável:<br><code id="line">${esc(line)}</code></p><p id="status">${esc(status)}</p><p><a href="/boleto/${esc(pi.id)}.pdf" id="pdf">Baixar PDF</a></p>
${returnUrl ? `<p><a href="${esc(returnUrl)}" id="back">Voltar à loja</a></p>` : ""}`,
  );
}
