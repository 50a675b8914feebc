/**
 * Registry of checkout page sections, one per payment method: each method's file registers a
 * renderer of its HTML fragment (Pix here; card, boleto, Multibanco, MB WAY and crypto live in their
 * own files and are imported by ./methods.ts). Renderers return trusted HTML: escape every value.
 */
import type { Config } from "../../config";
import type { PaymentMethod } from "../../domain/charges/model";
import type { TransactionRow } from "../../providers/types";

export interface CheckoutContext {
  row: TransactionRow;
  config: Config;
  /** True for sandbox (test-key) transactions: show the simulation controls. */
  sandbox: boolean;
  /** Server time (epoch ms), so countdowns follow the service clock. */
  nowMs: number;
  merchantName: string;
  /** Absolute base of this page's own endpoints: `{checkout_url_base}/<raw_id>`. */
  pageUrl: string;
  /** CSP nonce for inline scripts a section adds. */
  nonce: string;
}

export interface CheckoutSection {
  method: PaymentMethod;
  /** Tab/heading label shown to the payer. */
  label: string;
  /** The method's HTML for a transaction still awaiting payment. */
  render(ctx: CheckoutContext): string;
}

const sections = new Map<PaymentMethod, CheckoutSection>();

/** Adds (or replaces) the section of `section.method`. */
export function registerCheckoutSection(section: CheckoutSection): void {
  sections.set(section.method, section);
}

/** The registered section of `method`, if any. */
export function checkoutSectionFor(method: PaymentMethod): CheckoutSection | undefined {
  return sections.get(method);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** HTML-escapes text for element content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** `R$ 12,34` style amount of `minor` units of `currency`. */
export function formatMoney(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat("pt-BR", { style: "currency", currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}
