/**
 * CREDIT_CARD section of the checkout (`cardRedirectUrl` lands here). Sandbox: a card form
 * posting to `{page}/card` with the test card numbers listed (approve, decline, 3DS then
 * approve / decline). Live: no card acquirer is configured yet, so the form is not offered.
 */
import { SANDBOX_CARDS } from "../../providers/sandbox/card";
import { escapeHtml } from "./format";
import { registerCheckoutSection, type CheckoutContext } from "./sections";

function render(ctx: CheckoutContext): string {
  if (!ctx.sandbox) return `<section class="method" aria-labelledby="card-title"><h2 id="card-title">Cartão de crédito</h2><p>Pagamento com cartão indisponível no momento.</p></section>`;
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
