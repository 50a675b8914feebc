/**
 * Transaction expiry of non-Pix methods: when the transaction offers PIX, the Pix window
 * (`pix.expires_at`) is authoritative; otherwise the transaction expires when its longest-lived
 * method lapses (the latest `expiresAt` of its methods).
 */
import type { TransactionRow } from "../../domain/providers/types";

/** `columns` patch setting `expiresAt` for a method valid until `untilMs` (see module doc). */
export function methodExpiryColumns(tx: TransactionRow, untilMs: number): { expiresAt?: number } {
  let offered: string[] = [];
  try {
    offered = JSON.parse(tx.paymentMethods);
  } catch {}
  if (offered.includes("PIX")) return {};
  return { expiresAt: Math.max(tx.expiresAt ?? 0, untilMs) };
}
