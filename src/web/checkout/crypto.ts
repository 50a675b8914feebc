/**
 * CRYPTO section of the checkout: deposit address (copyable), exact amount, network, currency and deadline; sandbox
 * simulate button.
 */
import { methodDetails } from "../../domain/payments/views";
import { escapeHtml, formatDateTime } from "./format";
import { registerCheckoutSection, type CheckoutContext } from "./sections";
import { copyField, sandboxPayBox } from "./widgets";

function render(ctx: CheckoutContext): string {
  const c = methodDetails(ctx.row).CRYPTO;
  if (!c || typeof c.address !== "string")
    return `<section class="method"><h2>Cripto</h2><p>Endereço indisponível.</p></section>`;
  const until = formatDateTime(c.expiresAt as string | undefined);
  return `<section class="method" aria-labelledby="crypto-title">
<h2 id="crypto-title">Cripto (${escapeHtml(c.currency)} na rede ${escapeHtml(c.network)})</h2>
<p>Envie exatamente <strong data-testid="crypto-amount">${escapeHtml(c.amount)} ${escapeHtml(c.currency)}</strong> para o endereço abaixo.</p>
${copyField({ id: "crypto-address", label: "Endereço de depósito", value: c.address, button: "Copiar endereço", done: "Endereço copiado", testId: "crypto-address" })}
<p class="hint">Envie apenas pela rede ${escapeHtml(c.network)}.${until ? ` Válido até ${escapeHtml(until)} (horário de Brasília).` : ""}</p>
${sandboxPayBox(ctx, "CRYPTO")}
</section>`;
}

registerCheckoutSection({ method: "CRYPTO", label: "Cripto", render });
