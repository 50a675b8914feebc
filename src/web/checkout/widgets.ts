/**
 * HTML pieces shared by the checkout sections: a copy button, a read-only code with its copy
 * button, and the clearly marked sandbox box with its "SANDBOX — simular pagamento" button. Behaviour comes from
 * the page's one script (./script.ts) through `data-*` hooks; no inline handlers (CSP).
 */
import type { PaymentMethod } from "../../domain/charges/model";
import { escapeHtml } from "./format";
import { checkoutSectionFor, type CheckoutContext } from "./sections";

export interface CopyField {
  /** Element id of the textarea (unique on the page). */
  id: string;
  /** Visible label of the code. */
  label: string;
  /** Text shown (e.g. the formatted linha digitável). */
  value: string;
  /** Text put on the clipboard when it differs from `value` (e.g. the 47 digits only). */
  copyText?: string;
  /** Button text, e.g. "Copiar código Pix". */
  button: string;
  /** Announced once copied, e.g. "Código Pix copiado". */
  done: string;
  rows?: number;
  testId?: string;
}

/** A labelled read-only textarea, a copy button and a polite live region for the confirmation. */
export function copyField(f: CopyField): string {
  const testId = f.testId ? ` data-testid="${escapeHtml(f.testId)}"` : "";
  return `<div class="copy">
<label for="${escapeHtml(f.id)}">${escapeHtml(f.label)}</label>
<textarea id="${escapeHtml(f.id)}" readonly rows="${f.rows ?? 2}"${testId}>${escapeHtml(f.value)}</textarea>
${copyButton(f)}
</div>`;
}

/**
 * A copy button and its polite live region: copies `copyText`, else the value of the element
 * `id` (at least one of them is given), and announces `done`.
 */
export function copyButton(f: Pick<CopyField, "copyText" | "button" | "done"> & { id?: string }): string {
  const target = f.id !== undefined ? ` data-copy="${escapeHtml(f.id)}"` : "";
  const copyText = f.copyText !== undefined ? ` data-copy-text="${escapeHtml(f.copyText)}"` : "";
  return `<button type="button"${target}${copyText} data-copy-done="${escapeHtml(f.done)}">${escapeHtml(f.button)}</button>
<p class="hint" aria-live="polite" data-copy-status></p>`;
}

/**
 * The marked sandbox box (empty in live mode): its button posts `body` (default `{method}`) to
 * `url` (default `{page}/pay`) and reloads. `method` names the button for tests
 * (`data-sandbox-pay`) and, through its registered section's label, for the payer.
 */
export function sandboxPayBox(
  ctx: CheckoutContext,
  method: PaymentMethod,
  url = ctx.links.pay,
  body: Record<string, unknown> = { method },
): string {
  if (!ctx.sandbox) return "";
  const label = checkoutSectionFor(method)?.label ?? method;
  return `<div class="sandbox" role="note">
<p><strong>SANDBOX</strong> — ambiente de teste: nenhum dinheiro real é movimentado.</p>
<button type="button" class="secondary" data-sandbox-pay="${escapeHtml(method)}" data-url="${escapeHtml(url)}" data-body="${escapeHtml(JSON.stringify(body))}">SANDBOX — simular pagamento (${escapeHtml(label)})</button>
<p class="error" role="alert" data-sandbox-error hidden></p>
</div>`;
}
