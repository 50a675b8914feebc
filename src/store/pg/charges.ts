/**
 * PostgreSQL implementation of the charges repository (src/store/port/charges.ts): `transactions`
 * and the create's account read; the side tables are in ./charges-side.ts. Twin of
 * src/store/sqlite/charges.ts: same rows, same order. Text ties sort `collate "C"` (SQLite's
 * BINARY), whatever the database's collation. Amounts in centavos, times in epoch ms.
 */
import type { ChargeListQuery, ChargesRepo, CreateAccount } from "../port/charges";
import type { TransactionRow } from "../rows";
import { chargeSideRepo } from "./charges-side";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";

/**
 * First key of the two-int advisory locks of the velocity guard (the second is a hash of the
 * scope). The two-key space does not overlap the one-bigint key of the migration lock.
 */
const VELOCITY_LOCK_CLASS = 0x76656c6f; // "velo"

/** Builds the charges repository on `ctx`. */
export function chargesRepo(ctx: PgContext): ChargesRepo {
  const byId = async (id: string) => rowOf<TransactionRow>(await ctx.sql`select * from transactions where id = ${id}`);
  /**
   * Waiting Pix charges the expiry sweep owns (the partial index `tx_waiting_expiry_idx`, plus not a
   * live PSP's): the domain's `WAITING` group (src/domain/charges/model.ts) as the index spells it.
   */
  const waiting = () =>
    ctx.sql`status in ('PENDING', 'WAITING_PAYMENT') and expires_at is not null and provider_connection_id is null`;
  /** Payer document (customer document or expected payer tax id) is `doc`. */
  const byDocument = (doc: string) => ctx.sql`and (customer_document = ${doc} or expected_payer_tax_id = ${doc})`;
  const none = () => ctx.sql``;

  return {
    async byScopedId(accountId, livemode, id) {
      return rowOf<TransactionRow>(
        await ctx.sql`select * from transactions where id = ${id} and account_id = ${accountId} and livemode = ${livemode}`,
      );
    },
    byId,
    async lockForChange(id) {
      return rowOf<TransactionRow>(await ctx.sql`select * from transactions where id = ${id} for update`);
    },
    async byTxid(txid) {
      return rowOf<TransactionRow>(await ctx.sql`select * from transactions where pix_txid = ${txid}`);
    },
    async byTxids(accountId, livemode, txids) {
      if (txids.length === 0) return [];
      return rowsOf<TransactionRow>(
        await ctx.sql`select * from transactions where pix_txid = any(${[...txids]}::text[]) and account_id = ${accountId} and livemode = ${livemode}`,
      );
    },
    async insert(r) {
      // Create hot path: every column spelled out (one prepared statement; building the column
      // list from the object costs more than the insert). Columns with a schema default take it
      // when the row leaves them undefined, as on SQLite.
      await ctx.sql`insert into transactions (id, account_id, livemode, amount, currency, status, payment_methods, paid_with, origin,
          customer_id, customer_name, customer_document, customer_email, customer_phone, expected_payer_tax_id, payer_lock_applied,
          metadata, webhook_url, pix_br_code, pix_txid, pix_location, expires_at, provider_connection_id, ttl_seconds, method_details,
          end_to_end_id, platform_fee, refunded_amount, paid_at, created_at, updated_at)
        values (${r.id}, ${r.accountId}, ${r.livemode}, ${r.amount}, ${r.currency}, ${r.status}, ${r.paymentMethods}, ${r.paidWith ?? null}, ${r.origin},
          ${r.customerId ?? null}, ${r.customerName ?? null}, ${r.customerDocument ?? null}, ${r.customerEmail ?? null}, ${r.customerPhone ?? null},
          ${r.expectedPayerTaxId ?? null}, ${r.payerLockApplied ?? false}, ${r.metadata ?? "{}"}, ${r.webhookUrl ?? null}, ${r.pixBrCode ?? null},
          ${r.pixTxid ?? null}, ${r.pixLocation ?? null}, ${r.expiresAt ?? null}, ${r.providerConnectionId ?? null}, ${r.ttlSeconds ?? null},
          ${r.methodDetails ?? "{}"}, ${r.endToEndId ?? null}, ${r.platformFee ?? null}, ${r.refundedAmount ?? 0}, ${r.paidAt ?? null},
          ${r.createdAt}, ${r.updatedAt})`;
    },
    async update(id, patch) {
      const cols = toColumns(patch);
      const row =
        Object.keys(cols).length === 0
          ? await byId(id)
          : rowOf<TransactionRow>(await ctx.sql`update transactions set ${ctx.sql(cols)} where id = ${id} returning *`);
      if (!row) throw new Error(`no transaction ${id} to update`);
      return row;
    },
    async transition(id, fromStatus, patch) {
      const cols = toColumns(patch);
      if (Object.keys(cols).length === 0) cols.status = fromStatus;
      // One conditional statement: a concurrent writer's change makes it match nothing (READ COMMITTED re-checks the row).
      return rowOf<TransactionRow>(
        await ctx.sql`update transactions set ${ctx.sql(cols)} where id = ${id} and status = ${fromStatus} returning *`,
      );
    },
    async countAlive(p) {
      // Inside a unit the guard is a read-then-insert: a transaction-scoped advisory lock per
      // (account, mode) makes concurrent creates of a velocity-limited account count each other,
      // as SQLite's single writer does. Its own statement: READ COMMITTED takes the count's
      // snapshot after the lock is granted, so it sees what the previous holder committed.
      if (ctx.inUnit)
        await ctx.sql`select pg_advisory_xact_lock(${VELOCITY_LOCK_CLASS}, hashtext(${`${p.accountId}:${p.livemode}`}))`;
      return numberOf(
        await ctx.sql`select count(*) from transactions
          where account_id = ${p.accountId} and livemode = ${p.livemode} and created_at >= ${p.sinceMs} and status = any(${[...p.statuses]}::text[])
          ${p.document !== undefined ? byDocument(p.document) : none()}`,
      )!;
    },
    async list(q: ChargeListQuery) {
      const after = q.after
        ? ctx.sql`and (created_at < ${q.after.createdAt} or (created_at = ${q.after.createdAt} and id < ${q.after.id} collate "C"))`
        : none();
      return rowsOf<TransactionRow>(
        await ctx.sql`select * from transactions
          where account_id = ${q.accountId} and livemode = ${q.livemode} and payment_methods like '%"PIX"%'
          ${q.statuses ? ctx.sql`and status = any(${q.statuses}::text[])` : none()}
          ${q.createdFromMs !== undefined ? ctx.sql`and created_at >= ${q.createdFromMs}` : none()}
          ${q.createdToMs !== undefined ? ctx.sql`and created_at <= ${q.createdToMs}` : none()}
          ${q.document !== undefined ? byDocument(q.document) : none()}
          ${after}
          order by created_at desc, id collate "C" desc
          limit ${q.limit + 1}`,
      );
    },
    // Read without locks: one instance runs the sweep job at a time (jobs are claimed
    // exclusively) and each expiry is its own unit that locks its charge (lockForChange).
    async dueForExpiry(nowMs, limit) {
      const rows =
        await ctx.sql`select id from transactions where ${waiting()} and expires_at <= ${nowMs} order by expires_at, id collate "C" limit ${limit}`;
      return (rows as { id: string }[]).map((r) => r.id);
    },
    async nextExpiryAfter(nowMs) {
      return numberOf(
        await ctx.sql`select min(expires_at) from transactions where ${waiting()} and expires_at > ${nowMs}`,
      );
    },
    async firstExpiry() {
      return numberOf(await ctx.sql`select min(expires_at) from transactions where ${waiting()}`);
    },
    async accountForCreate(accountId) {
      // Create hot path: served from the instance's account cache outside a unit (./account-cache.ts).
      const cache = ctx.shared.accounts;
      const hit = ctx.inUnit ? undefined : cache.get(accountId)?.account;
      if (hit) return hit;
      const epoch = cache.epoch();
      const account = await readAccountForCreate(accountId);
      if (account && !ctx.inUnit) cache.put(accountId, { account }, epoch);
      return account;
    },
    async merchantName(accountId) {
      const [a] = await ctx.sql`select name from accounts where id = ${accountId}`;
      return a?.name as string | undefined;
    },
    ...chargeSideRepo(ctx),
  };

  /** Name and create rules of the account (one read). */
  async function readAccountForCreate(accountId: string): Promise<CreateAccount | undefined> {
    const [a] =
      await ctx.sql`select name, payer_lock_enabled, default_expires_in, pix_fee_bps, pix_fee_fixed, settlement_delay_seconds,
        customer_velocity_max, account_velocity_max, velocity_window_seconds from accounts where id = ${accountId}`;
    if (!a) return undefined;
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      name: a.name as string,
      settings: {
        payer_lock_enabled: a.payer_lock_enabled === true,
        default_expires_in: Number(a.default_expires_in),
        pix_fee_bps: Number(a.pix_fee_bps),
        pix_fee_fixed: Number(a.pix_fee_fixed),
        settlement_delay_seconds: Number(a.settlement_delay_seconds),
        customer_velocity_max: num(a.customer_velocity_max),
        account_velocity_max: num(a.account_velocity_max),
        velocity_window_seconds: Number(a.velocity_window_seconds),
      },
    };
  }
}
