/**
 * BOLETO section of the checkout: the linha digitável (shown formatted, copied as its 47 digits),
 * the due date (`dd/mm/aaaa`) and the PDF link; sandbox simulate button (`{page}/pay`).
 */
import { methodDetails } from "../../domain/payments/views";
import { formatLine } from "../../domain/payments/boleto-pdf";
import { escapeHtml, formatDate } from "./format";
import { registerCheckoutSection, type CheckoutContext } from "./sections";
import { copyField, sandboxPayBox } from "./widgets";

/** The voucher's PDF: a live boleto's is its provider's (Stripe), the sandbox's Cofre's own. */
function pdfLink(ctx: CheckoutContext, b: Record<string, unknown>): string {
  return !ctx.sandbox && typeof b.pdfUrl === "string" && /^https?:\/\//.test(b.pdfUrl) ? b.pdfUrl : ctx.links.boletoPdf;
}

function render(ctx: CheckoutContext): string {
  const b = methodDetails(ctx.row).BOLETO;
  if (!b || typeof b.line !== "string")
    return `<section class="method"><h2>Boleto</h2><p>Boleto indisponível.</p></section>`;
  return `<section class="method" aria-labelledby="boleto-title">
<h2 id="boleto-title">Boleto bancário</h2>
<p>Vencimento: <strong data-testid="boleto-due">${escapeHtml(formatDate(b.dueDate))}</strong></p>
${copyField({ id: "boleto-line", label: "Linha digitável", value: formatLine(b.line), copyText: b.line, button: "Copiar linha digitável", done: "Linha digitável copiada", testId: "boleto-line" })}
<p><a href="${escapeHtml(pdfLink(ctx, b))}" target="_blank" rel="noopener">Baixar boleto (PDF)</a></p>
${sandboxPayBox(ctx, "BOLETO")}
</section>`;
}

registerCheckoutSection({ method: "BOLETO", label: "Boleto", render });
