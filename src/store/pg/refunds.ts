/**
 * PostgreSQL implementation of the refunds repository (src/store/port/refunds.ts). Twin of
 * src/store/sqlite/refunds.ts. The writes that guard money (`moveFrom`, `reserveRefundable`) are
 * single conditional statements: under READ COMMITTED a concurrent writer of the same row makes
 * the second one wait, then re-check its condition on the committed row. Amounts in centavos,
 * times in epoch ms.
 */
import type { RefundsRepo } from "../port/refunds";
import type { RefundRow } from "../rows";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";

/** Builds the refunds repository on `ctx`. */
export function refundsRepo(ctx: PgContext): RefundsRepo {
  return {
    async insert(row) {
      await ctx.sql`insert into refunds ${ctx.sql(toColumns(row))}`;
    },
    async byId(id) {
      return rowOf<RefundRow>(await ctx.sql`select * from refunds where id = ${id}`);
    },
    async byIdScoped(accountId, livemode, id) {
      return rowOf<RefundRow>(
        await ctx.sql`select * from refunds where id = ${id} and account_id = ${accountId} and livemode = ${livemode}`,
      );
    },
    // Index refunds_tx_idx.
    async listForTransaction(transactionId) {
      return rowsOf<RefundRow>(
        await ctx.sql`select * from refunds where transaction_id = ${transactionId} order by created_at desc, id collate "C" desc`,
      );
    },
    async moveFrom(id, from, patch: Partial<RefundRow>) {
      const cols = toColumns(patch);
      if (Object.keys(cols).length === 0) cols.status = from;
      return rowOf<RefundRow>(
        await ctx.sql`update refunds set ${ctx.sql(cols)} where id = ${id} and status = ${from} returning *`,
      );
    },
    async confirmedTotal(transactionId) {
      return (
        numberOf(
          await ctx.sql`select coalesce(sum(amount), 0) from refunds where transaction_id = ${transactionId} and status = 'REFUNDED'`,
        ) ?? 0
      );
    },
    async reserveRefundable(transactionId, amount, statuses, now) {
      const r = await ctx.sql`update transactions set refunded_amount = refunded_amount + ${amount}, updated_at = ${now}
        where id = ${transactionId} and status = any(${[...statuses]}::text[]) and refunded_amount + ${amount} <= amount`;
      return r.count === 1;
    },
    async releaseRefundable(transactionId, amount, now) {
      await ctx.sql`update transactions set refunded_amount = greatest(0, refunded_amount - ${amount}), updated_at = ${now} where id = ${transactionId}`;
    },
  };
}
