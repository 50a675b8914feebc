/**
 * MBWAY section of the checkout: the request was pushed to the payer's (masked) phone, deadline in pt-BR; sandbox
 * simulate button.
 */
import { methodDetails } from "../../domain/payments/views";
import { escapeHtml, formatDateTime } from "./format";
import { registerCheckoutSection, type CheckoutContext } from "./sections";
import { sandboxPayBox } from "./widgets";

function render(ctx: CheckoutContext): string {
  const d = methodDetails(ctx.row).MBWAY ?? {};
  const until = formatDateTime(d.expiresAt as string | undefined);
  const phone = typeof d.pushedTo === "string" ? `o celular <bdi>${escapeHtml(d.pushedTo)}</bdi>` : "o seu celular";
  return `<section class="method" aria-labelledby="mbway-title">
<h2 id="mbway-title">MB WAY</h2>
<p>Enviamos um pedido de pagamento para ${phone}. Aprove-o no app MB WAY${until ? ` até ${escapeHtml(until)} (horário de Brasília)` : ""}.</p>
${sandboxPayBox(ctx, "MBWAY")}
</section>`;
}

registerCheckoutSection({ method: "MBWAY", label: "MB WAY", render });
