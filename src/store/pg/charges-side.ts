/**
 * PostgreSQL implementation of the charges repository's side tables (src/store/port/charges.ts):
 * create intents, Pix signing keys, sandbox provider faults. Twin of src/store/sqlite/charges-side.ts.
 */
import type { ChargesRepo } from "../port/charges";
import type { CreateIntentRow, PixSigningKeyRow } from "../rows";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";
import { noticePayload, NOTICE_CHANNEL } from "./notices";

type SideMethods = Pick<
  ChargesRepo,
  | "intentOf"
  | "staleIntents"
  | "hasOpenIntents"
  | "openIntent"
  | "dropIntent"
  | "signingKey"
  | "addSigningKey"
  | "setFaults"
  | "faultsLeft"
  | "takeFault"
>;

/** The intent, signing-key and fault methods of the charges repository on `ctx`. */
export function chargeSideRepo(ctx: PgContext): SideMethods {
  return {
    async intentOf(k) {
      return rowOf<CreateIntentRow>(
        await ctx.sql`select * from create_intents where account_id = ${k.accountId} and livemode = ${k.livemode} and scope = ${k.scope} and key = ${k.key}`,
      );
    },
    async staleIntents(beforeMs, limit) {
      // Ties in insertion order: intent ids are time-ordered (rawId).
      return rowsOf<CreateIntentRow>(
        await ctx.sql`select * from create_intents where created_at <= ${beforeMs} order by created_at, id collate "C" limit ${limit}`,
      );
    },
    async hasOpenIntents() {
      return (await ctx.sql`select 1 from create_intents limit 1`).length > 0;
    },
    async openIntent(row) {
      await ctx.sql`insert into create_intents ${ctx.sql(toColumns(row))}`;
    },
    async dropIntent(id) {
      return (await ctx.sql`delete from create_intents where id = ${id}`).count === 1;
    },
    // Two instances may each add a key on first use; both then read this one (src/domain/charges/location.ts):
    // the oldest, ties broken by kid so that every instance picks the same.
    async signingKey() {
      return rowOf<PixSigningKeyRow>(
        await ctx.sql`select * from pix_signing_keys order by created_at, kid collate "C" limit 1`,
      );
    },
    async addSigningKey(row) {
      await ctx.sql`insert into pix_signing_keys ${ctx.sql(toColumns(row))}`;
    },
    async setFaults(accountId, mode, count, updatedAt) {
      // Instances keep "no pending faults" per account (./account-cache.ts): this clears it everywhere.
      await ctx.sql`with s as (insert into sandbox_provider_faults (account_id, mode, remaining, updated_at) values (${accountId}, ${mode}, ${count}, ${updatedAt})
          on conflict (account_id) do update set mode = excluded.mode, remaining = excluded.remaining, updated_at = excluded.updated_at)
        select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("accounts", accountId)})`;
      ctx.afterCommit(() => ctx.shared.accounts.clear());
    },
    async faultsLeft(accountId) {
      // Create hot path (every sandbox create): "none pending" is served from the account cache.
      const cache = ctx.shared.accounts;
      if (!ctx.inUnit && cache.get(accountId)?.noFaults) return 0;
      const epoch = cache.epoch();
      const left =
        numberOf(await ctx.sql`select remaining from sandbox_provider_faults where account_id = ${accountId}`) ?? 0;
      if (left <= 0 && !ctx.inUnit) cache.put(accountId, { noFaults: true }, epoch);
      return left;
    },
    async takeFault(accountId) {
      // The conditional decrement locks the row: a concurrent taker waits, then re-checks
      // `remaining > 0` on what this unit committed (or finds the row deleted), so two units
      // never take the same last fault.
      const [taken] = await ctx.sql`update sandbox_provider_faults set remaining = remaining - 1
        where account_id = ${accountId} and remaining > 0 returning mode, remaining`;
      if (!taken) return null;
      if (Number(taken.remaining) === 0)
        await ctx.sql`delete from sandbox_provider_faults where account_id = ${accountId} and remaining <= 0`;
      return taken.mode as string;
    },
  };
}
