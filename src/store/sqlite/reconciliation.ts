/**
 * SQLite implementation of the reconciliation repository (src/store/port/reconciliation.ts):
 * drizzle builder queries (daily and per-poll reads, off every hot path) on `transactions`,
 * `payouts`, `refunds`, `reconciliations` and `psp_infractions`.
 */
import { and, between, desc, eq, gte, inArray, isNotNull, isNull, lte, min, ne, or } from "drizzle-orm";
import { payouts, pspInfractions, reconciliations, refunds, transactions } from "../../../db/schema";
import type { ReconciliationRepo } from "../port/reconciliation";
import type { SqliteContext } from "./context";

/** Builds the reconciliation repository on the adapter's connection `ctx`. */
export function reconciliationRepo(ctx: SqliteContext): ReconciliationRepo {
  const db = ctx.db;
  return {
    async paidBetween(accountId, fromMs, toMs) {
      return db
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.accountId, accountId),
            eq(transactions.livemode, true),
            isNotNull(transactions.endToEndId),
            between(transactions.paidAt, fromMs, toMs),
          ),
        )
        .all();
    },
    async chargesMatching(accountId, endToEndIds, txids) {
      if (endToEndIds.length === 0 && txids.length === 0) return [];
      const by = [];
      if (endToEndIds.length) by.push(inArray(transactions.endToEndId, [...endToEndIds]));
      if (txids.length) by.push(inArray(transactions.pixTxid, [...txids]));
      return db
        .select()
        .from(transactions)
        .where(and(eq(transactions.accountId, accountId), eq(transactions.livemode, true), or(...by)))
        .all();
    },
    async payoutsSentBetween(accountId, fromMs, toMs) {
      return db
        .select()
        .from(payouts)
        .where(
          and(
            eq(payouts.accountId, accountId),
            eq(payouts.livemode, true),
            between(payouts.processingAt, fromMs, toMs),
          ),
        )
        .all();
    },
    async cashoutsBetween(accountId, fromMs, toMs) {
      return db
        .select()
        .from(refunds)
        .where(
          and(
            eq(refunds.accountId, accountId),
            eq(refunds.livemode, true),
            eq(refunds.strategy, "cashout"),
            between(refunds.createdAt, fromMs, toMs),
          ),
        )
        .all();
    },
    async sentBySendIds(accountId, sendIds) {
      if (sendIds.length === 0) return { payouts: [], refunds: [] };
      const ids = [...sendIds];
      return {
        payouts: db
          .select()
          .from(payouts)
          .where(and(eq(payouts.accountId, accountId), eq(payouts.livemode, true), inArray(payouts.sendId, ids)))
          .all(),
        refunds: db
          .select()
          .from(refunds)
          .where(
            and(
              eq(refunds.accountId, accountId),
              eq(refunds.livemode, true),
              eq(refunds.strategy, "cashout"),
              inArray(refunds.providerRefundId, ids),
            ),
          )
          .all(),
      };
    },
    async devolutionsOf(accountId, transactionIds) {
      if (transactionIds.length === 0) return [];
      return db
        .select()
        .from(refunds)
        .where(
          and(
            eq(refunds.accountId, accountId),
            eq(refunds.livemode, true),
            inArray(refunds.transactionId, [...transactionIds]),
            or(isNull(refunds.strategy), ne(refunds.strategy, "cashout")),
          ),
        )
        .all();
    },
    async saveResult(row) {
      const { accountId: _a, date: _d, createdAt: _c, ...rest } = row;
      db.insert(reconciliations)
        .values(row)
        .onConflictDoUpdate({ target: [reconciliations.accountId, reconciliations.date], set: rest })
        .run();
    },
    async result(accountId, date) {
      return db
        .select()
        .from(reconciliations)
        .where(and(eq(reconciliations.accountId, accountId), eq(reconciliations.date, date)))
        .get();
    },
    async listResults(accountId, fromDate, toDate) {
      return db
        .select()
        .from(reconciliations)
        .where(
          and(
            eq(reconciliations.accountId, accountId),
            gte(reconciliations.date, fromDate),
            lte(reconciliations.date, toDate),
          ),
        )
        .orderBy(desc(reconciliations.date))
        .all();
    },
    async infraction(connectionId, id) {
      return db
        .select()
        .from(pspInfractions)
        .where(and(eq(pspInfractions.connectionId, connectionId), eq(pspInfractions.id, id)))
        .get();
    },
    async putInfraction(row) {
      const { connectionId: _c, id: _i, createdAt: _t, ...rest } = row;
      db.insert(pspInfractions)
        .values(row)
        .onConflictDoUpdate({ target: [pspInfractions.connectionId, pspInfractions.id], set: rest })
        .run();
    },
    // Index psp_infractions_account_idx.
    async unknownInfractionsBetween(accountId, fromMs, toMs) {
      return db
        .select()
        .from(pspInfractions)
        .where(
          and(
            eq(pspInfractions.accountId, accountId),
            between(pspInfractions.pspCreatedAt, fromMs, toMs),
            isNull(pspInfractions.caseId),
          ),
        )
        .orderBy(pspInfractions.pspCreatedAt, pspInfractions.id)
        .all();
    },
    async oldestActiveInfraction(connectionId) {
      const r = db
        .select({ at: min(pspInfractions.pspCreatedAt) })
        .from(pspInfractions)
        .where(
          and(
            eq(pspInfractions.connectionId, connectionId),
            isNotNull(pspInfractions.caseId),
            inArray(pspInfractions.status, ["ABERTA", "EM_DEFESA"]),
          ),
        )
        .get();
      return r?.at ?? null;
    },
    async infractionOfCase(caseId) {
      return db.select().from(pspInfractions).where(eq(pspInfractions.caseId, caseId)).get();
    },
  };
}
