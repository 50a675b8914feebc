/** MULTIBANCO section of the checkout: entity, reference and amount to pay at an ATM or home banking; sandbox simulate button. */
import { methodDetails } from "../../domain/payments/views";
import { formatReference } from "../../payments/multibanco";
import { sandboxPayBox } from "./sandbox-controls";
import { escapeHtml, formatMoney, registerCheckoutSection, type CheckoutContext } from "./sections";

function render(ctx: CheckoutContext): string {
  const mb = methodDetails(ctx.row).MULTIBANCO;
  if (!mb || typeof mb.reference !== "string") return `<section class="method"><h2>Multibanco</h2><p>Referência indisponível.</p></section>`;
  return `<section class="method" aria-labelledby="mb-title">
<h2 id="mb-title">Multibanco</h2>
<dl style="text-align:left">
<dt>Entidade</dt><dd data-testid="mb-entity">${escapeHtml(mb.entity)}</dd>
<dt>Referência</dt><dd data-testid="mb-reference">${escapeHtml(formatReference(mb.reference))}</dd>
<dt>Montante</dt><dd>${escapeHtml(formatMoney(ctx.row.amount, ctx.row.currency))}</dd>
<dt>Válida até</dt><dd>${escapeHtml(mb.expiresAt)}</dd>
</dl>
${sandboxPayBox(ctx, "MULTIBANCO")}
</section>`;
}

registerCheckoutSection({ method: "MULTIBANCO", label: "Multibanco", render });
