/** MBWAY section of the checkout: the request was pushed to the payer's phone; sandbox simulate button. */
import { methodDetails } from "../../domain/payments/views";
import { sandboxPayBox } from "./sandbox-controls";
import { escapeHtml, registerCheckoutSection, type CheckoutContext } from "./sections";

function render(ctx: CheckoutContext): string {
  const d = methodDetails(ctx.row).MBWAY ?? {};
  return `<section class="method" aria-labelledby="mbway-title">
<h2 id="mbway-title">MB WAY</h2>
<p>Enviámos um pedido de pagamento para ${escapeHtml(d.pushedTo ?? "o seu telemóvel")}. Aprove-o na app MB WAY${d.expiresAt ? ` até ${escapeHtml(d.expiresAt)}` : ""}.</p>
${sandboxPayBox(ctx, "MBWAY")}
</section>`;
}

registerCheckoutSection({ method: "MBWAY", label: "MB WAY", render });
