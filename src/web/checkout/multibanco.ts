/**
 * MULTIBANCO section of the checkout: entity, reference (copyable) and amount to pay at an ATM or internet banking;
 * sandbox simulate button.
 */
import { methodDetails } from "../../domain/payments/views";
import { formatReference } from "../../formats/multibanco";
import { escapeHtml, formatDateTime, formatMoney } from "./format";
import { registerCheckoutSection, type CheckoutContext } from "./sections";
import { copyButton, sandboxPayBox } from "./widgets";

function render(ctx: CheckoutContext): string {
  const mb = methodDetails(ctx.row).MULTIBANCO;
  if (!mb || typeof mb.reference !== "string")
    return `<section class="method"><h2>Multibanco</h2><p>Referência indisponível.</p></section>`;
  const until = formatDateTime(mb.expiresAt as string | undefined);
  return `<section class="method" aria-labelledby="mb-title">
<h2 id="mb-title">Multibanco</h2>
<p>Pague em um caixa Multibanco ou pelo internet banking com estes dados:</p>
<dl class="facts">
<dt>Entidade</dt><dd data-testid="mb-entity">${escapeHtml(mb.entity)}</dd>
<dt>Referência</dt><dd data-testid="mb-reference">${escapeHtml(formatReference(mb.reference))}</dd>
<dt>Valor</dt><dd>${escapeHtml(formatMoney(ctx.row.amount, ctx.row.currency))}</dd>
${until ? `<dt>Válida até</dt><dd>${escapeHtml(until)} (horário de Brasília)</dd>` : ""}
</dl>
${copyButton({ copyText: mb.reference, button: "Copiar referência", done: "Referência copiada" })}
${sandboxPayBox(ctx, "MULTIBANCO")}
</section>`;
}

registerCheckoutSection({ method: "MULTIBANCO", label: "Multibanco", render });
