/** CRYPTO section of the checkout: deposit address, exact amount, network and currency; sandbox simulate button. */
import { methodDetails } from "../../domain/payments/views";
import { sandboxPayBox } from "./sandbox-controls";
import { escapeHtml, registerCheckoutSection, type CheckoutContext } from "./sections";

function render(ctx: CheckoutContext): string {
  const c = methodDetails(ctx.row).CRYPTO;
  if (!c || typeof c.address !== "string") return `<section class="method"><h2>Cripto</h2><p>Endereço indisponível.</p></section>`;
  return `<section class="method" aria-labelledby="crypto-title">
<h2 id="crypto-title">Cripto (${escapeHtml(c.currency)} na rede ${escapeHtml(c.network)})</h2>
<p>Envie exatamente <strong data-testid="crypto-amount">${escapeHtml(c.amount)} ${escapeHtml(c.currency)}</strong> para:</p>
<textarea readonly rows="2" data-testid="crypto-address">${escapeHtml(c.address)}</textarea>
<p class="hint">Envie apenas pela rede ${escapeHtml(c.network)}.</p>
${sandboxPayBox(ctx, "CRYPTO")}
</section>`;
}

registerCheckoutSection({ method: "CRYPTO", label: "Cripto", render });
