/**
 * The public Charge (interface.md "Charge"): an explicit allowlist built from a transaction row.
 * Never includes internal ids, provider data, fees or the payer's real document.
 */
import type { Config } from "../../config";
import { iso } from "../../lib/clock";
import type { TransactionRow } from "../../providers/types";
import { PUBLIC_STATUS, type TransactionStatus } from "./model";

export const CHARGE_ID_PREFIX = "ch_";

export interface PublicCharge {
  id: string;
  object: "charge";
  amount: number;
  currency: string;
  status: string;
  payment_method: "pix";
  customer: { name: string | null; document: string | null };
  pix: { br_code: string; qr_code_url: string; expires_at: string | null; txid?: string } | null;
  checkout_url: string;
  settlement: { end_to_end_id?: string };
  metadata: Record<string, unknown>;
  created_at: string;
  expected_payer_tax_id?: string;
}

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
export function toPublicCharge(row: TransactionRow, config: Pick<Config, "publicUrl" | "checkoutUrlBase">): PublicCharge {
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
