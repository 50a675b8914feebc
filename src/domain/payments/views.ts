/**
 * The Transaction wire format of `/v1/payments` (interface.md "Transaction"): explicit
 * allowlists built from the shared transaction row. Never carries `provider`,
 * `providerAccountId`, `providerTransactionId`, `providerFeeSource`, `cardClientSecret`,
 * `tenantId`, `providerFee` or `netAmount` (Versioning 4); card redirects are the checkout's
 * `/c/<id>` link. Method fields are null when the method is not offered or not finalised.
 */
import type { Config } from "../../config";
import { iso } from "../../lib/clock";
import { qrDataUrl } from "../../pix/qr";
import type { TransactionRow } from "../../providers/types";
import { checkoutUrl, rowMetadata } from "../charges/views";

export interface TransactionCreateShape {
  id: string;
  status: string;
  amount: number;
  currency: string;
  paymentMethods: string[];
  customerName: string | null;
  customerDocument: string | null;
  customerEmail: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export interface TransactionGetShape extends TransactionCreateShape {
  paidWith: string | null;
  pixQrCode: string | null;
  pixCopyPaste: string | null;
  pixExpiresAt: string | null;
  cardRedirectUrl: string | null;
  mbEntity: string | null;
  mbReference: string | null;
  mbExpiresAt: string | null;
  boletoBarcode: string | null;
  boletoLine: string | null;
  boletoPdfUrl: string | null;
  boletoExpiresAt: string | null;
  cryptoAddress: string | null;
  cryptoAmount: string | null;
  cryptoNetwork: string | null;
  cryptoCurrency: string | null;
  platformFee: number | null;
  paidAt: string | null;
}

/** Offered methods of a row (`payment_methods` JSON array). */
export function offeredMethods(row: Pick<TransactionRow, "paymentMethods">): string[] {
  try {
    const v = JSON.parse(row.paymentMethods);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** `method_details` JSON of a row, by method. */
export function methodDetails(row: Pick<TransactionRow, "methodDetails">): Record<string, Record<string, unknown>> {
  try {
    const v = JSON.parse(row.methodDetails);
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

/** `/v1/boletos/<raw id>.pdf` under the public URL. */
export function boletoPdfUrl(config: Pick<Config, "publicUrl">, rawId: string): string {
  return `${config.publicUrl}/v1/boletos/${rawId}.pdf`;
}

/** Create shape (201 of POST /v1/payments). */
export function toTransactionCreate(row: TransactionRow): TransactionCreateShape {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    paymentMethods: offeredMethods(row),
    customerName: row.customerName ?? null,
    customerDocument: row.customerDocument ?? null,
    customerEmail: row.customerEmail ?? null,
    metadata: rowMetadata(row),
    createdAt: iso(row.createdAt),
  };
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Get shape (GET /v1/payments/{id}, list items, cancel). Async: renders the Pix QR data URL. */
export async function toTransaction(row: TransactionRow, config: Pick<Config, "publicUrl" | "checkoutUrlBase">): Promise<TransactionGetShape> {
  const offered = new Set(offeredMethods(row));
  const d = methodDetails(row);
  const mb = offered.has("MULTIBANCO") ? (d.MULTIBANCO ?? {}) : {};
  const bol = offered.has("BOLETO") ? (d.BOLETO ?? {}) : {};
  const cr = offered.has("CRYPTO") ? (d.CRYPTO ?? {}) : {};
  const pix = offered.has("PIX") && row.pixBrCode ? row.pixBrCode : null;
  return {
    ...toTransactionCreate(row),
    paidWith: row.paidWith ?? null,
    pixQrCode: pix ? await qrDataUrl(pix) : null,
    pixCopyPaste: pix,
    pixExpiresAt: pix && row.expiresAt !== null ? iso(row.expiresAt) : null,
    cardRedirectUrl: offered.has("CREDIT_CARD") ? checkoutUrl(config, row.id) : null,
    mbEntity: str(mb.entity),
    mbReference: str(mb.reference),
    mbExpiresAt: str(mb.expiresAt),
    boletoBarcode: str(bol.barcode),
    boletoLine: str(bol.line),
    boletoPdfUrl: str(bol.barcode) ? boletoPdfUrl(config, row.id) : null,
    boletoExpiresAt: str(bol.expiresAt),
    cryptoAddress: str(cr.address),
    cryptoAmount: str(cr.amount),
    cryptoNetwork: str(cr.network),
    cryptoCurrency: str(cr.currency),
    platformFee: row.platformFee ?? null,
    paidAt: row.paidAt === null ? null : iso(row.paidAt),
  };
}
