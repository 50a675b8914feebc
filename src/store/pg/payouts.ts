/**
 * PostgreSQL implementation of the payouts and payout destinations repositories
 * (src/store/port/payouts.ts). Twin of src/store/sqlite/payouts.ts. `moveFrom` and `softDelete`
 * are single conditional statements (READ COMMITTED: a concurrent writer of the same row makes the
 * second wait, then re-check its condition on the committed row). The daily sum is read after the
 * caller took the account's debit lock (src/store/pg/ledger.ts), so each statement sees every
 * payout committed by the units that held it before. Amounts in centavos, times epoch ms.
 */
import type { PayoutDestinationsRepo, PayoutListQuery, PayoutsRepo } from "../port/payouts";
import type { PayoutDestinationRow, PayoutRow } from "../rows";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";

/** Builds the payout destinations repository on `ctx`. */
export function payoutDestinationsRepo(ctx: PgContext): PayoutDestinationsRepo {
  return {
    async insert(row) {
      await ctx.sql`insert into payout_destinations ${ctx.sql(toColumns(row))}`;
    },
    async byIdScoped(accountId, id) {
      return rowOf<PayoutDestinationRow>(
        await ctx.sql`select * from payout_destinations where id = ${id} and account_id = ${accountId}`,
      );
    },
    // Index payout_destinations_account_idx.
    async listActive(accountId) {
      return rowsOf<PayoutDestinationRow>(
        await ctx.sql`select * from payout_destinations where account_id = ${accountId} and deleted_at is null order by created_at desc, id collate "C" desc`,
      );
    },
    async softDelete(accountId, id, now) {
      const r =
        await ctx.sql`update payout_destinations set deleted_at = ${now} where id = ${id} and account_id = ${accountId} and deleted_at is null`;
      return r.count === 1;
    },
  };
}

/** Builds the payouts repository on `ctx`. */
export function payoutsRepo(ctx: PgContext): PayoutsRepo {
  return {
    async insert(row) {
      await ctx.sql`insert into payouts ${ctx.sql(toColumns(row))}`;
    },
    async byId(id) {
      return rowOf<PayoutRow>(await ctx.sql`select * from payouts where id = ${id}`);
    },
    async byIdScoped(accountId, livemode, id) {
      return rowOf<PayoutRow>(
        await ctx.sql`select * from payouts where id = ${id} and account_id = ${accountId} and livemode = ${livemode}`,
      );
    },
    async bySendId(sendId) {
      return rowOf<PayoutRow>(await ctx.sql`select * from payouts where send_id = ${sendId}`);
    },
    async moveFrom(id, from, patch: Partial<PayoutRow>) {
      const cols = toColumns(patch);
      if (Object.keys(cols).length === 0) cols.status = from;
      return rowOf<PayoutRow>(
        await ctx.sql`update payouts set ${ctx.sql(cols)} where id = ${id} and status = ${from} returning *`,
      );
    },
    // Index payouts_account_idx.
    async list(q: PayoutListQuery) {
      const none = () => ctx.sql``;
      const after = q.after
        ? ctx.sql`and (created_at < ${q.after.createdAt} or (created_at = ${q.after.createdAt} and id < ${q.after.id} collate "C"))`
        : none();
      return rowsOf<PayoutRow>(
        await ctx.sql`select * from payouts
          where account_id = ${q.accountId} and livemode = ${q.livemode}
          ${q.status !== undefined ? ctx.sql`and status = ${q.status}` : none()}
          ${q.createdFromMs !== undefined ? ctx.sql`and created_at >= ${q.createdFromMs}` : none()}
          ${q.createdToMs !== undefined ? ctx.sql`and created_at <= ${q.createdToMs}` : none()}
          ${after}
          order by created_at desc, id collate "C" desc
          limit ${q.limit + 1}`,
      );
    },
    async sumActiveCreated(accountId, livemode, fromMs, toMs) {
      return (
        numberOf(
          await ctx.sql`select coalesce(sum(amount), 0) from payouts
            where account_id = ${accountId} and livemode = ${livemode} and created_at >= ${fromMs} and created_at < ${toMs}
              and status not in ('failed', 'cancelled')`,
        ) ?? 0
      );
    },
    async inFlightTotals() {
      return rowsOf<{ accountId: string; livemode: boolean; currency: string; amount: number }>(
        await ctx.sql`select account_id, livemode, currency, sum(amount) as amount from payouts where status in ('pending', 'processing') group by account_id, livemode, currency`,
      );
    },
  };
}
