/**
 * The final screens of the checkout (paid, expired, failed, cancelled, refunded, processing,
 * disputed), pt-BR, each with an inline SVG icon (no emoji or font-dependent glyph).
 */
import { escapeHtml } from "./format";

const svg = (body: string) =>
  `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

const ICONS = {
  check: svg(`<circle cx="12" cy="12" r="10"/><path d="M7 12.5l3.2 3.2L17 9"/>`),
  clock: svg(`<circle cx="12" cy="12" r="10"/><path d="M12 6.5V12l3.5 2"/>`),
  cross: svg(`<circle cx="12" cy="12" r="10"/><path d="M8.5 8.5l7 7M15.5 8.5l-7 7"/>`),
  back: svg(`<path d="M9 14L4 9l5-5"/><path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11"/>`),
  dots: svg(`<circle cx="12" cy="12" r="10"/><path d="M8 12h.01M12 12h.01M16 12h.01"/>`),
  alert: svg(`<circle cx="12" cy="12" r="10"/><path d="M12 7v6M12 17h.01"/>`),
};

const SCREENS: Record<string, { title: string; text: string; icon: keyof typeof ICONS; tone: "good" | "bad" | "" }> = {
  paid: { title: "Pagamento confirmado", text: "Recebemos o seu pagamento. Obrigado!", icon: "check", tone: "good" },
  expired: {
    title: "Cobrança expirada",
    text: "O prazo para pagamento terminou. Peça uma nova cobrança ao vendedor.",
    icon: "clock",
    tone: "bad",
  },
  failed: {
    title: "Pagamento não concluído",
    text: "Não foi possível processar esta cobrança. Peça uma nova cobrança ao vendedor.",
    icon: "cross",
    tone: "bad",
  },
  cancelled: {
    title: "Cobrança cancelada",
    text: "Esta cobrança foi cancelada pelo vendedor.",
    icon: "cross",
    tone: "bad",
  },
  refunded: { title: "Pagamento devolvido", text: "O valor foi devolvido ao pagador.", icon: "back", tone: "" },
  processing: {
    title: "Pagamento em análise",
    text: "Recebemos o pagamento e ele está em análise.",
    icon: "dots",
    tone: "",
  },
  disputed: {
    title: "Pagamento em disputa",
    text: "Este pagamento está em análise de disputa.",
    icon: "alert",
    tone: "",
  },
};

/**
 * The final screen of public status `status` (an unknown one shows the failed screen); with
 * `receiptHref` (a final outcome: links.ts `receipt`) a "Baixar comprovante" link to the PDF.
 */
export function renderFinalScreen(status: string, receiptHref?: string): string {
  const s = SCREENS[status] ?? SCREENS.failed!;
  const receipt = receiptHref
    ? `<p><a class="button receipt" data-testid="receipt" href="${escapeHtml(receiptHref)}" download>Baixar comprovante</a></p>`
    : "";
  return `<div class="final ${s.tone}" data-state="${escapeHtml(status)}" role="status">${ICONS[s.icon]}<h2>${escapeHtml(s.title)}</h2><p>${escapeHtml(s.text)}</p>${receipt}</div>`;
}
