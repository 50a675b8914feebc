/**
 * PostgreSQL implementation of the reconciliation repository (src/store/port/reconciliation.ts).
 * Twin of src/store/sqlite/reconciliation.ts. Upserts are single statements (`on conflict`), so
 * two instances storing the same day or infraction at once leave one row.
 */
import type { ReconciliationRepo } from "../port/reconciliation";
import type { PayoutRow, PspInfractionRow, ReconciliationRow, RefundRow, TransactionRow } from "../rows";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";

/** Builds the reconciliation repository on `ctx`. */
export function reconciliationRepo(ctx: PgContext): ReconciliationRepo {
  return {
    async paidBetween(accountId, fromMs, toMs) {
      return rowsOf<TransactionRow>(
        await ctx.sql`select * from transactions where account_id = ${accountId} and livemode = true and end_to_end_id is not null
          and paid_at >= ${fromMs} and paid_at <= ${toMs}`,
      );
    },
    async chargesMatching(accountId, endToEndIds, txids) {
      if (endToEndIds.length === 0 && txids.length === 0) return [];
      return rowsOf<TransactionRow>(
        await ctx.sql`select * from transactions where account_id = ${accountId} and livemode = true
          and (end_to_end_id = any(${[...endToEndIds]}::text[]) or pix_txid = any(${[...txids]}::text[]))`,
      );
    },
    async payoutsSentBetween(accountId, fromMs, toMs) {
      return rowsOf<PayoutRow>(
        await ctx.sql`select * from payouts where account_id = ${accountId} and livemode = true and processing_at >= ${fromMs} and processing_at <= ${toMs}`,
      );
    },
    async cashoutsBetween(accountId, fromMs, toMs) {
      return rowsOf<RefundRow>(
        await ctx.sql`select * from refunds where account_id = ${accountId} and livemode = true and strategy = 'cashout'
          and created_at >= ${fromMs} and created_at <= ${toMs}`,
      );
    },
    async sentBySendIds(accountId, sendIds) {
      if (sendIds.length === 0) return { payouts: [], refunds: [] };
      const ids = [...sendIds];
      const p = rowsOf<PayoutRow>(
        await ctx.sql`select * from payouts where account_id = ${accountId} and livemode = true and send_id = any(${ids}::text[])`,
      );
      const r = rowsOf<RefundRow>(
        await ctx.sql`select * from refunds where account_id = ${accountId} and livemode = true and strategy = 'cashout' and provider_refund_id = any(${ids}::text[])`,
      );
      return { payouts: p, refunds: r };
    },
    async devolutionsOf(accountId, transactionIds) {
      if (transactionIds.length === 0) return [];
      return rowsOf<RefundRow>(
        await ctx.sql`select * from refunds where account_id = ${accountId} and livemode = true and transaction_id = any(${[...transactionIds]}::text[])
          and (strategy is null or strategy <> 'cashout')`,
      );
    },
    async saveResult(row) {
      await ctx.sql`insert into reconciliations ${ctx.sql(toColumns(row))}
        on conflict (account_id, date) do update set connection_id = excluded.connection_id, status = excluded.status,
          result = excluded.result, updated_at = excluded.updated_at`;
    },
    async result(accountId, date) {
      return rowOf<ReconciliationRow>(
        await ctx.sql`select * from reconciliations where account_id = ${accountId} and date = ${date}`,
      );
    },
    async listResults(accountId, fromDate, toDate) {
      return rowsOf<ReconciliationRow>(
        await ctx.sql`select * from reconciliations where account_id = ${accountId} and date >= ${fromDate} and date <= ${toDate} order by date desc`,
      );
    },
    async infraction(connectionId, id) {
      return rowOf<PspInfractionRow>(
        await ctx.sql`select * from psp_infractions where connection_id = ${connectionId} and id = ${id}`,
      );
    },
    async putInfraction(row) {
      await ctx.sql`insert into psp_infractions ${ctx.sql(toColumns(row))}
        on conflict (connection_id, id) do update set account_id = excluded.account_id, end_to_end_id = excluded.end_to_end_id,
          amount = excluded.amount, status = excluded.status, case_id = excluded.case_id, psp_created_at = excluded.psp_created_at,
          defense_sent_at = excluded.defense_sent_at, updated_at = excluded.updated_at`;
    },
    // Index psp_infractions_account_idx.
    async unknownInfractionsBetween(accountId, fromMs, toMs) {
      return rowsOf<PspInfractionRow>(
        await ctx.sql`select * from psp_infractions where account_id = ${accountId} and psp_created_at >= ${fromMs} and psp_created_at <= ${toMs}
          and case_id is null order by psp_created_at, id collate "C"`,
      );
    },
    async oldestActiveInfraction(connectionId) {
      return (
        numberOf(
          await ctx.sql`select min(psp_created_at) from psp_infractions where connection_id = ${connectionId} and case_id is not null
            and status in ('ABERTA', 'EM_DEFESA')`,
        ) ?? null
      );
    },
    async infractionOfCase(caseId) {
      return rowOf<PspInfractionRow>(await ctx.sql`select * from psp_infractions where case_id = ${caseId}`);
    },
  };
}
