/**
 * The public Charge (interface.md "Charge"): an explicit allowlist built from a transaction row.
 * Never includes internal ids, provider data, fees or the payer's real document.
 */
import type { Config } from "../../config";
import { iso } from "../../lib/clock";
import type { TransactionRow } from "../providers/types";
import {
  Closed,
  Currency,
  DateTime,
  JsonObject,
  Money,
  Nullable,
  OneOf,
  Type,
  Url,
  View,
  type Static,
} from "../../lib/view-schema";
import { CHARGE_STATUSES, PUBLIC_STATUS, type TransactionStatus } from "./model";

export const CHARGE_ID_PREFIX = "ch_";

/**
 * True when the transaction has a charge view (it offers PIX): `GET /v1/charges/{id}` answers it
 * (getCharge) and it gets canonical `charge.*` events. `paymentMethods` is the stored JSON array.
 */
export function hasChargeView(row: Pick<TransactionRow, "paymentMethods">): boolean {
  return row.paymentMethods.includes('"PIX"');
}

/** The Charge object (interface.md "Charge"): the response schema of every charge route. */
export const ChargeSchema = View("Charge", {
  id: Type.String({
    description: "`ch_` + the raw transaction id.",
    examples: ["ch_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"],
  }),
  object: Type.Literal("charge"),
  amount: Money(),
  currency: Currency(),
  status: OneOf(CHARGE_STATUSES),
  payment_method: Type.Literal("pix"),
  customer: Closed({
    name: Nullable(Type.String({ examples: ["Fulano de Tal"] })),
    document: Nullable(Type.String({ description: "Digits of the CPF/CNPJ.", examples: ["12345678909"] })),
  }),
  pix: Nullable(
    Closed({
      br_code: Type.String({
        description: "Pix copia e cola (EMV BR Code).",
        examples: [
          "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4",
        ],
      }),
      qr_code_url: Url({
        description: "PNG of the BR Code.",
        examples: ["https://pay.example.com/v1/qr/0193a6f2c1d87c4e9b1a2f3e4d5c6b7a.png"],
      }),
      expires_at: Nullable(DateTime()),
      txid: Type.Optional(
        Type.String({ pattern: "^[a-zA-Z0-9]{26,35}$", examples: ["0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
      ),
    }),
  ),
  checkout_url: Url({ examples: ["https://pay.example.com/c/0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  settlement: Closed(
    {
      end_to_end_id: Type.Optional(
        Type.String({ description: "Present once paid and credited.", examples: ["E1234567820261120120012345678901"] }),
      ),
    },
    { examples: [{}] },
  ),
  metadata: JsonObject(),
  created_at: DateTime(),
  expected_payer_tax_id: Type.Optional(
    Type.String({ description: "Only when the payer lock applies.", examples: ["12345678909"] }),
  ),
});

export type PublicCharge = Static<typeof ChargeSchema>;

/** `GET /v1/charges`: a cursor page. */
export const ChargeListSchema = View("ChargeList", {
  object: Type.Literal("list"),
  data: Type.Array(ChargeSchema),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String({ description: "Pass as `starting_after` for the next page." })),
});

/** `GET /v1/qr/<raw_id>.png` under the public URL. */
export function qrCodeUrl(config: Pick<Config, "publicUrl">, rawId: string): string {
  return `${config.publicUrl}/v1/qr/${rawId}.png`;
}

/** `{checkout_url_base}/<raw_id>`. */
export function checkoutUrl(config: Pick<Config, "checkoutUrlBase">, rawId: string): string {
  return `${config.checkoutUrlBase}/${rawId}`;
}

/** Parsed `metadata` column (`{}` when unreadable). */
export function rowMetadata(row: Pick<TransactionRow, "metadata">): Record<string, unknown> {
  try {
    const m = JSON.parse(row.metadata);
    return m && typeof m === "object" && !Array.isArray(m) ? m : {};
  } catch {
    return {};
  }
}

/** True when the payer paid and the amount was credited (settlement carries the end-to-end id). */
function settled(row: TransactionRow): boolean {
  return row.paidAt !== null && row.endToEndId !== null;
}

/** The exact public Charge of `row`. */
export function toPublicCharge(
  row: TransactionRow,
  config: Pick<Config, "publicUrl" | "checkoutUrlBase">,
): PublicCharge {
  const out: PublicCharge = {
    id: CHARGE_ID_PREFIX + row.id,
    object: "charge",
    amount: row.amount,
    currency: row.currency,
    status: PUBLIC_STATUS[row.status as TransactionStatus] ?? "pending",
    payment_method: "pix",
    customer: { name: row.customerName ?? null, document: row.customerDocument ?? null },
    pix: row.pixBrCode
      ? {
          br_code: row.pixBrCode,
          qr_code_url: qrCodeUrl(config, row.id),
          expires_at: row.expiresAt === null ? null : iso(row.expiresAt),
          ...(row.pixTxid ? { txid: row.pixTxid } : {}),
        }
      : null,
    checkout_url: checkoutUrl(config, row.id),
    settlement: settled(row) ? { end_to_end_id: row.endToEndId! } : {},
    metadata: rowMetadata(row),
    created_at: iso(row.createdAt),
  };
  if (row.payerLockApplied && row.expectedPayerTaxId) out.expected_payer_tax_id = row.expectedPayerTaxId;
  return out;
}
