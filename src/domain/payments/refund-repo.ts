/** Drizzle queries on `refunds` (no HTTP, no business rules). */
import { and, desc, eq, sql } from "drizzle-orm";
import { refunds, transactions } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import type { RefundRow } from "./refund-views";

export function insertRefund(t: DbOrTx, row: RefundRow): void {
  t.insert(refunds).values(row).run();
}

/** The refund `id` whatever its account (jobs). */
export function findRefund(db: DbOrTx, id: string): RefundRow | undefined {
  return db.select().from(refunds).where(eq(refunds.id, id)).get();
}

/** The refund `id` of (account, mode), or undefined. */
export function findRefundScoped(db: DbOrTx, accountId: string, livemode: boolean, id: string): RefundRow | undefined {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, id), eq(refunds.accountId, accountId), eq(refunds.livemode, livemode)))
    .get();
}

/** Every refund of a transaction, newest first (index refunds_tx_idx). */
export function listRefunds(db: DbOrTx, transactionId: string): RefundRow[] {
  return db.select().from(refunds).where(eq(refunds.transactionId, transactionId)).orderBy(desc(refunds.createdAt), desc(refunds.id)).all();
}

export function updateRefund(t: DbOrTx, id: string, patch: Partial<RefundRow>): RefundRow {
  return t.update(refunds).set(patch).where(eq(refunds.id, id)).returning().get()!;
}

/** Sum of the REFUNDED refunds of a transaction, minor units. */
export function confirmedRefundTotal(db: DbOrTx, transactionId: string): number {
  return db
    .select({ s: sql<number>`coalesce(sum(${refunds.amount}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.transactionId, transactionId), eq(refunds.status, "REFUNDED")))
    .get()!.s;
}

/**
 * Reserves `amount` of the transaction's refundable remainder: adds it to `refunded_amount` only
 * while the total stays <= `amount`. Returns false when it would exceed (the guard that keeps
 * concurrent refunds within the amount, on top of BEGIN IMMEDIATE serialisation).
 */
export function reserveRefundable(t: DbOrTx, transactionId: string, amount: number, now: number): boolean {
  const r = t
    .update(transactions)
    .set({ refundedAmount: sql`${transactions.refundedAmount} + ${amount}`, updatedAt: now })
    .where(and(eq(transactions.id, transactionId), sql`${transactions.refundedAmount} + ${amount} <= ${transactions.amount}`))
    .run();
  return (r as unknown as { changes: number }).changes === 1;
}

/** Gives `amount` back to the refundable remainder (a FAILED refund). */
export function releaseRefundable(t: DbOrTx, transactionId: string, amount: number, now: number): void {
  t.update(transactions)
    .set({ refundedAmount: sql`max(0, ${transactions.refundedAmount} - ${amount})`, updatedAt: now })
    .where(eq(transactions.id, transactionId))
    .run();
}
