/** BOLETO section of the checkout: typeable line (copyable), due date and the PDF link; sandbox simulate button. */
import { boletoPdfUrl, methodDetails } from "../../domain/payments/views";
import { formatLine } from "../../domain/payments/boleto-pdf";
import { sandboxPayBox } from "./sandbox-controls";
import { escapeHtml, registerCheckoutSection, type CheckoutContext } from "./sections";

function render(ctx: CheckoutContext): string {
  const b = methodDetails(ctx.row).BOLETO;
  if (!b || typeof b.line !== "string") return `<section class="method"><h2>Boleto</h2><p>Boleto indisponível.</p></section>`;
  return `<section class="method" aria-labelledby="boleto-title">
<h2 id="boleto-title">Boleto bancário</h2>
<p>Vencimento: <strong>${escapeHtml(b.dueDate)}</strong></p>
<label for="boleto-line">Linha digitável</label>
<textarea id="boleto-line" readonly rows="2" data-testid="boleto-line">${escapeHtml(formatLine(b.line))}</textarea>
<p><a href="${escapeHtml(boletoPdfUrl(ctx.config, ctx.row.id))}" target="_blank" rel="noopener">Baixar boleto (PDF)</a></p>
${sandboxPayBox(ctx, "BOLETO")}
</section>`;
}

registerCheckoutSection({ method: "BOLETO", label: "Boleto", render });
