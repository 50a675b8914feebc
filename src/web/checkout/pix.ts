/**
 * Pix section of the checkout: QR image (`/v1/qr/<raw_id>.png`), the BR Code with a copy button,
 * a countdown to `pix.expires_at` on the service clock and, in sandbox, a clearly marked
 * "Simulate payment" button posting to `{page}/simulate`.
 */
import { qrCodeUrl } from "../../domain/charges/views";
import { escapeHtml, registerCheckoutSection, type CheckoutContext } from "./sections";

function render(ctx: CheckoutContext): string {
  const { row } = ctx;
  if (!row.pixBrCode) return `<p>O Pix não está disponível para esta cobrança.</p>`;
  const expires = row.expiresAt ?? 0;
  const sandbox = ctx.sandbox
    ? `<div class="sandbox" role="note">
  <p><strong>SANDBOX</strong> — modo de teste: nenhum dinheiro real é movimentado.</p>
  <button type="button" id="simulate" class="secondary" data-url="${escapeHtml(ctx.pageUrl)}/simulate">Simulate payment</button>
  <p id="simulate-error" class="error" role="alert" hidden></p>
</div>`
    : "";
  return `<section class="method" aria-labelledby="pix-title">
<h2 id="pix-title">Pague com Pix</h2>
<img class="qr" src="${escapeHtml(qrCodeUrl(ctx.config, row.id))}" width="240" height="240" alt="QR Code Pix para pagamento">
<p>Ou copie o código Pix (copia e cola) e cole no app do seu banco:</p>
<label for="br-code" class="visually-hidden">Código Pix copia e cola</label>
<textarea id="br-code" readonly rows="4" data-testid="br-code">${escapeHtml(row.pixBrCode)}</textarea>
<button type="button" id="copy" data-copy-target="br-code">Copiar código Pix</button>
<p id="copy-status" class="hint" aria-live="polite"></p>
<p class="countdown">Expira em <time id="countdown" datetime="${new Date(expires).toISOString()}" data-expires="${expires}" data-now="${ctx.nowMs}">--:--</time></p>
${sandbox}
</section>`;
}

registerCheckoutSection({ method: "PIX", label: "Pix", render });
