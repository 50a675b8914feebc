/**
 * The hosted checkout page (extensions.md "Public pages"; issue 13 section 3): amount, merchant,
 * order description and payer name, the section of every method the transaction offers while it
 * awaits payment, and a final screen otherwise. pt-BR HTML with no inline script or style: one
 * stylesheet and one script, same-origin static files (./assets.ts); every URL relative to the
 * page, so it works through any host (./links.ts). Merchant and customer text is escaped, clipped and
 * bidi-isolated. The status refreshes itself by polling `{page}/status`.
 */
import { PUBLIC_STATUS, type PaymentMethod, type TransactionStatus } from "../../domain/charges/model";
import { rowMetadata } from "../../domain/charges/views";
import { RECEIPT_STATUSES } from "../../domain/payments/receipt";
import { renderFinalScreen } from "./final";
import { clip, escapeHtml, formatMoney } from "./format";
import type { CheckoutAssetLinks } from "./links";
import "./methods";
import { checkoutSectionFor, type CheckoutContext } from "./sections";

/** Longest merchant name, description and payer name shown (graphemes); longer text ends in "…". */
export const TEXT_LIMITS = { merchant: 100, description: 280, customer: 100 } as const;

/** `text` escaped, clipped to `max` graphemes and isolated from the surrounding text direction. */
function userText(text: string, max: number): string {
  return `<bdi>${escapeHtml(clip(text, max))}</bdi>`;
}

/** The complete checkout HTML for `ctx.row`. */
export function renderCheckoutPage(ctx: CheckoutContext): string {
  const { row } = ctx;
  const status = PUBLIC_STATUS[row.status as TransactionStatus] ?? "pending";
  let body: string;
  if (status === "pending") {
    const methods = JSON.parse(row.paymentMethods) as PaymentMethod[];
    const parts = methods.map(
      (m) =>
        checkoutSectionFor(m)?.render(ctx) ??
        `<section class="method"><p>${escapeHtml(m)}: indisponível nesta página.</p></section>`,
    );
    body = `<div class="pending" data-state="pending">${parts.join("\n")}</div>`;
  } else {
    body = renderFinalScreen(status, RECEIPT_STATUSES.has(row.status) ? ctx.links.receipt : undefined);
  }
  const description = rowMetadata(row).description;
  const amount = escapeHtml(formatMoney(row.amount, row.currency));
  const polled = status === "pending" || status === "processing";
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Pagamento — ${escapeHtml(clip(ctx.merchantName, TEXT_LIMITS.merchant))}</title>
<link rel="stylesheet" href="${escapeHtml(ctx.links.style)}">
<link rel="icon" href="${escapeHtml(ctx.links.favicon)}">
</head>
<body>
<main id="checkout" data-status="${escapeHtml(status)}" data-status-url="${polled ? escapeHtml(ctx.links.status) : ""}">
<header>
<p class="merchant" data-testid="merchant">${userText(ctx.merchantName, TEXT_LIMITS.merchant)}${ctx.sandbox ? ` <span class="badge">SANDBOX</span>` : ""}</p>
${ctx.merchantTaxId ? `<p class="merchant-id" data-testid="merchant-tax-id">${escapeHtml(ctx.merchantTaxId)}</p>` : ""}
<h1 class="amount">${amount}</h1>
${typeof description === "string" && description ? `<p class="description" data-testid="description">${userText(description, TEXT_LIMITS.description)}</p>` : ""}
${row.customerName ? `<p class="customer" data-testid="customer">Pagador: ${userText(row.customerName, TEXT_LIMITS.customer)}</p>` : ""}
</header>
<div class="card" aria-live="polite">
${body}
</div>
</main>
<script src="${escapeHtml(ctx.links.script)}" defer></script>
</body>
</html>`;
}

/** The 404 page of an unknown checkout id (served under the checkout path, like the page). */
export function renderNotFoundPage(links: CheckoutAssetLinks): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Cobrança não encontrada</title><link rel="stylesheet" href="${escapeHtml(links.style)}"><link rel="icon" href="data:,"></head>
<body><main><div class="card final" data-state="not_found" role="status"><h1>Cobrança não encontrada</h1><p>Confira o link recebido do vendedor.</p></div></main></body></html>`;
}
