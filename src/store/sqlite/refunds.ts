/**
 * SQLite implementation of the refunds repository (src/store/port/refunds.ts): drizzle builder queries on `refunds`.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { refunds, transactions } from "../../../db/schema";
import type { RefundsRepo } from "../port/refunds";
import type { RefundRow } from "../rows";
import type { SqliteContext } from "./context";

/** Builds the refunds repository on the adapter's connection `ctx`. */
export function refundsRepo(ctx: SqliteContext): RefundsRepo {
  const db = ctx.db;
  return {
    async insert(row) {
      db.insert(refunds).values(row).run();
    },
    async byId(id) {
      return db.select().from(refunds).where(eq(refunds.id, id)).get();
    },
    async byIdScoped(accountId, livemode, id) {
      return db
        .select()
        .from(refunds)
        .where(and(eq(refunds.id, id), eq(refunds.accountId, accountId), eq(refunds.livemode, livemode)))
        .get();
    },
    // Index refunds_tx_idx.
    async listForTransaction(transactionId) {
      return db
        .select()
        .from(refunds)
        .where(eq(refunds.transactionId, transactionId))
        .orderBy(desc(refunds.createdAt), desc(refunds.id))
        .all();
    },
    async moveFrom(id, from, patch: Partial<RefundRow>) {
      return db
        .update(refunds)
        .set(patch)
        .where(and(eq(refunds.id, id), eq(refunds.status, from)))
        .returning()
        .get();
    },
    async confirmedTotal(transactionId) {
      return db
        .select({ s: sql<number>`coalesce(sum(${refunds.amount}), 0)` })
        .from(refunds)
        .where(and(eq(refunds.transactionId, transactionId), eq(refunds.status, "REFUNDED")))
        .get()!.s;
    },
    async reserveRefundable(transactionId, amount, statuses, now) {
      const r = db
        .update(transactions)
        .set({ refundedAmount: sql`${transactions.refundedAmount} + ${amount}`, updatedAt: now })
        .where(
          and(
            eq(transactions.id, transactionId),
            inArray(transactions.status, [...statuses]),
            sql`${transactions.refundedAmount} + ${amount} <= ${transactions.amount}`,
          ),
        )
        .run();
      return (r as unknown as { changes: number }).changes === 1;
    },
    async releaseRefundable(transactionId, amount, now) {
      db.update(transactions)
        .set({ refundedAmount: sql`max(0, ${transactions.refundedAmount} - ${amount})`, updatedAt: now })
        .where(eq(transactions.id, transactionId))
        .run();
    },
  };
}
