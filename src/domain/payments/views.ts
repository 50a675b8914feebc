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
import type { TransactionRow } from "../providers/types";
import { checkoutUrl, rowMetadata } from "../charges/views";
import { PAYMENT_METHODS, TRANSACTION_STATUSES, type PaymentMethod, type TransactionStatus } from "../charges/model";
import {
  Closed,
  Currency,
  DateTime,
  JsonObject,
  Money,
  Nullable,
  OneOf,
  Type,
  View,
  type Static,
} from "../../lib/view-schema";

const transactionCreateFields = {
  id: Type.String({ description: "Raw transaction id (32 hex).", examples: ["0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  status: OneOf(TRANSACTION_STATUSES),
  amount: Money(),
  currency: Currency(),
  paymentMethods: Type.Array(OneOf(PAYMENT_METHODS)),
  customerName: Nullable(Type.String({ examples: ["Fulano de Tal"] })),
  customerDocument: Nullable(Type.String()),
  customerEmail: Nullable(Type.String({ examples: ["fulano@example.com"] })),
  metadata: JsonObject(),
  createdAt: DateTime(),
};

/** 201 of POST /v1/payments (interface.md "Transaction", create shape). */
export const TransactionCreateSchema = View("TransactionCreated", transactionCreateFields);
export type TransactionCreateShape = Static<typeof TransactionCreateSchema>;

const str0 = (description?: string) => Nullable(Type.String(description ? { description } : {}));

/** Get shape: GET /v1/payments/{id}, list items, cancel. Method fields are null when not applicable. */
export const TransactionSchema = View("Transaction", {
  ...transactionCreateFields,
  paidWith: Nullable(OneOf(PAYMENT_METHODS)),
  pixQrCode: Nullable(
    Type.String({
      description: "data:image/png;base64 QR of the BR Code.",
      examples: ["data:image/png;base64,iVBORw0KGgo="],
    }),
  ),
  pixCopyPaste: Nullable(
    Type.String({
      description: "Pix copia e cola.",
      examples: [
        "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4",
      ],
    }),
  ),
  pixExpiresAt: Nullable(DateTime()),
  cardRedirectUrl: str0("Hosted checkout link for the card form."),
  mbEntity: str0("Multibanco entity (5 digits)."),
  mbReference: str0("Multibanco reference (9 digits)."),
  mbExpiresAt: str0(),
  boletoBarcode: str0("44 digits."),
  boletoLine: str0("47 digits."),
  boletoPdfUrl: str0(),
  boletoExpiresAt: str0(),
  cryptoAddress: str0(),
  cryptoAmount: str0("Decimal string in the crypto currency."),
  cryptoNetwork: str0(),
  cryptoCurrency: str0(),
  platformFee: Nullable(Money()),
  paidAt: Nullable(DateTime()),
  card: Nullable(
    Closed(
      {
        brand: Nullable(Type.String({ examples: ["visa"], description: "Card brand as the card provider names it." })),
        last4: Nullable(Type.String({ pattern: "^[0-9]{4}$", examples: ["4242"] })),
        installments: Nullable(
          Type.Integer({ minimum: 2, description: "Number of installments, when the payer chose them." }),
        ),
      },
      {
        description:
          'A live card payment\'s card (extensions.md "Live cards and boletos through Stripe"): null until paid by card, and for sandbox cards.',
      },
    ),
  ),
});
export type TransactionGetShape = Static<typeof TransactionSchema>;

/** GET /v1/payments: an offset page. */
export const TransactionListSchema = View("TransactionList", {
  data: Type.Array(TransactionSchema),
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
});

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
    status: row.status as TransactionStatus,
    amount: row.amount,
    currency: row.currency,
    paymentMethods: offeredMethods(row) as PaymentMethod[],
    customerName: row.customerName ?? null,
    customerDocument: row.customerDocument ?? null,
    customerEmail: row.customerEmail ?? null,
    metadata: rowMetadata(row),
    createdAt: iso(row.createdAt),
  };
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Get shape (GET /v1/payments/{id}, list items, cancel). Async: renders the Pix QR data URL. */
export async function toTransaction(
  row: TransactionRow,
  config: Pick<Config, "publicUrl" | "checkoutUrlBase">,
): Promise<TransactionGetShape> {
  const offered = new Set(offeredMethods(row));
  const d = methodDetails(row);
  const mb = offered.has("MULTIBANCO") ? (d.MULTIBANCO ?? {}) : {};
  const bol = offered.has("BOLETO") ? (d.BOLETO ?? {}) : {};
  const cr = offered.has("CRYPTO") ? (d.CRYPTO ?? {}) : {};
  const pix = offered.has("PIX") && row.pixBrCode ? row.pixBrCode : null;
  return {
    ...toTransactionCreate(row),
    paidWith: (row.paidWith as PaymentMethod | null) ?? null,
    pixQrCode: pix ? await qrDataUrl(pix) : null,
    pixCopyPaste: pix,
    pixExpiresAt: pix && row.expiresAt !== null ? iso(row.expiresAt) : null,
    cardRedirectUrl: offered.has("CREDIT_CARD") ? checkoutUrl(config, row.id) : null,
    mbEntity: str(mb.entity),
    mbReference: str(mb.reference),
    mbExpiresAt: str(mb.expiresAt),
    boletoBarcode: str(bol.barcode),
    boletoLine: str(bol.line),
    // A live boleto's voucher is the card provider's (Stripe's PDF); the sandbox's is Cofre's own.
    boletoPdfUrl: str(bol.pdfUrl) ?? (str(bol.barcode) ? boletoPdfUrl(config, row.id) : null),
    boletoExpiresAt: str(bol.expiresAt),
    cryptoAddress: str(cr.address),
    cryptoAmount: str(cr.amount),
    cryptoNetwork: str(cr.network),
    cryptoCurrency: str(cr.currency),
    platformFee: row.platformFee ?? null,
    paidAt: row.paidAt === null ? null : iso(row.paidAt),
    card: cardOf(row, d),
  };
}

/** The card block of a payment paid by a live card (brand, last four, installments; never the provider's fee or ids). */
function cardOf(row: TransactionRow, d: Record<string, Record<string, unknown>>): TransactionGetShape["card"] {
  const c = row.paidWith === "CREDIT_CARD" ? d.CREDIT_CARD : undefined;
  if (!c || (typeof c.brand !== "string" && typeof c.last4 !== "string")) return null;
  return {
    brand: str(c.brand),
    last4: typeof c.last4 === "string" && /^\d{4}$/.test(c.last4) ? c.last4 : null,
    installments:
      typeof c.installments === "number" && Number.isInteger(c.installments) && c.installments >= 2
        ? c.installments
        : null,
  };
}
