/**
 * Pix section of the checkout: QR image (`/v1/qr/<raw_id>.png`), the BR Code (Pix copia e cola)
 * with a copy button, the expiry (`dd/mm/aaaa HH:mm`, São Paulo) with a countdown on the service
 * clock and, in sandbox, the marked simulate button posting `{}` to `{page}/simulate`.
 */
import { escapeHtml, formatDateTime } from "./format";
import { registerCheckoutSection, type CheckoutContext } from "./sections";
import { copyField, sandboxPayBox } from "./widgets";

function render(ctx: CheckoutContext): string {
  const { row } = ctx;
  if (!row.pixBrCode)
    return `<section class="method"><h2>Pix</h2><p>O Pix não está disponível para esta cobrança.</p></section>`;
  const expires = row.expiresAt;
  const expiry =
    expires === null
      ? ""
      : `<p class="countdown">Expira em <time id="countdown" datetime="${new Date(expires).toISOString()}" data-expires="${expires}" data-now="${ctx.nowMs}">--:--</time></p>
<p class="hint">Válido até ${escapeHtml(formatDateTime(expires))} (horário de Brasília)</p>`;
  return `<section class="method" aria-labelledby="pix-title">
<h2 id="pix-title">Pague com Pix</h2>
<img class="qr" src="${escapeHtml(ctx.links.qr)}" width="240" height="240" alt="QR Code Pix para pagamento">
<p>Ou copie o código Pix (copia e cola) e cole no app do seu banco:</p>
${copyField({ id: "br-code", label: "Pix copia e cola", value: row.pixBrCode, button: "Copiar código Pix", done: "Código Pix copiado", rows: 5, testId: "br-code" })}
${expiry}
${sandboxPayBox(ctx, "PIX", ctx.links.simulate, {})}
</section>`;
}

registerCheckoutSection({ method: "PIX", label: "Pix", render });
