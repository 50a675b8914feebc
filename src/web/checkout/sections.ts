/**
 * Registry of checkout page sections, one per payment method: each method's file registers a
 * renderer of its HTML fragment (pix, card, boleto, Multibanco, MB WAY and crypto, imported by
 * ./methods.ts). Renderers return trusted HTML: escape every value (./format.ts).
 */
import type { PaymentMethod } from "../../domain/charges/model";
import type { TransactionRow } from "../../domain/providers/types";
import type { CheckoutLinks } from "./links";

export interface CheckoutContext {
  row: TransactionRow;
  /** True for sandbox (test-key) transactions: show the simulation controls. */
  sandbox: boolean;
  /** Server time (epoch ms), so countdowns follow the service clock. */
  nowMs: number;
  merchantName: string;
  /** The merchant's CNPJ/CPF line (`CNPJ 11.222.333/0001-81`, a CPF masked), or null/absent when unset. */
  merchantTaxId?: string | null;
  /** The page's own endpoints and files, relative to the page (./links.ts). */
  links: CheckoutLinks;
}

export interface CheckoutSection {
  method: PaymentMethod;
  /** Heading label shown to the payer (pt-BR). */
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
