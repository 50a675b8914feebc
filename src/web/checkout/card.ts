/**
 * CREDIT_CARD section of the checkout (`cardRedirectUrl` lands here). Sandbox: a card form
 * posting to `{page}/card` with the test card numbers listed (approve, decline, 3DS then
 * approve / decline). Live: "Pagar com cartão" sends the payer to the card provider's hosted
 * session (extensions.md "Live cards and boletos through Stripe"); the page then shows the outcome.
 */
import { SANDBOX_CARDS } from "../../domain/providers/sandbox-contract";
import { escapeHtml } from "./format";
import { methodDetails } from "../../domain/payments/views";
import { registerCheckoutSection, type CheckoutContext } from "./sections";

/**
 * The hosted card page of a live transaction (its card provider's session, kept in `method_details` at create), or
 * null.
 */
function liveSessionUrl(ctx: CheckoutContext): string | null {
  const url = methodDetails(ctx.row).CREDIT_CARD?.sessionUrl;
  return typeof url === "string" && /^https?:\/\//.test(url) ? url : null;
}

function render(ctx: CheckoutContext): string {
  if (!ctx.sandbox) {
    // Live: the card is typed on the card provider's hosted page (Stripe Checkout), never here.
    const url = liveSessionUrl(ctx);
    if (!url)
      return `<section class="method" aria-labelledby="card-title"><h2 id="card-title">Cartão de crédito</h2><p>Pagamento com cartão indisponível no momento.</p></section>`;
    return `<section class="method" aria-labelledby="card-title">
<h2 id="card-title">Cartão de crédito</h2>
<p>Você será levado à página segura do processador de cartões para digitar os dados do cartão.</p>
<p><a class="button" data-card-session href="${escapeHtml(url)}" rel="noreferrer">Pagar com cartão</a></p>
<p class="hint">Se você já pagou, aguarde: a confirmação aparece aqui em instantes.</p>
</section>`;
  }
  return `<section class="method" aria-labelledby="card-title">
<h2 id="card-title">Cartão de crédito</h2>
<form class="fields" data-card-form data-url="${escapeHtml(ctx.links.card)}" autocomplete="off">
<label for="card-number">Número do cartão</label>
<input id="card-number" name="number" inputmode="numeric" required maxlength="23">
<label for="card-expiry">Validade (MM/AA)</label>
<input id="card-expiry" name="expiry" maxlength="7">
<label for="card-cvc">Código de segurança (CVV)</label>
<input id="card-cvc" name="cvc" inputmode="numeric" maxlength="4">
<label for="card-holder">Nome impresso no cartão</label>
<input id="card-holder" name="holder" maxlength="100">
<button type="submit">Pagar com cartão</button>
<p class="error" role="alert" data-sandbox-error hidden></p>
</form>
<div class="sandbox" role="note"><p><strong>SANDBOX</strong> — cartões de teste:</p>
<ul class="facts">
<li><code>${SANDBOX_CARDS.approve}</code> aprovado</li>
<li><code>${SANDBOX_CARDS.decline}</code> recusado</li>
<li><code>${SANDBOX_CARDS.threeDsApprove}</code> 3DS, depois aprovado</li>
<li><code>${SANDBOX_CARDS.threeDsDecline}</code> 3DS, depois recusado</li>
</ul></div>
</section>`;
}

registerCheckoutSection({ method: "CREDIT_CARD", label: "Cartão de crédito", render });
