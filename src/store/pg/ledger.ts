/**
 * PostgreSQL implementation of the ledger repository (src/store/port/ledger.ts): journal, balances,
 * tranches. Balances have no hot row (issue 17): a posting adds each line to the `ledger_balances`
 * row of its session's shard (`pg_backend_pid() & 1023`; a session runs one unit at a time), so
 * concurrent payments of one merchant never wait on each other; every reader sums the shards.
 *
 * What a debit may do is decided under a lock: src/domain/ledger/post.ts refuses a negative
 * balance after a debit line, so the debits of one ledger account (merchant, mode, currency,
 * ledger account) take a transaction-scoped advisory lock before the statement that reads their
 * sum. Under READ COMMITTED that later statement sees every debit committed before the lock was
 * granted; credits committing meanwhile may be missed, which only makes the check conservative.
 * A debit line the domain lets go negative (`mayGoNegative`: external_payer, which every payment
 * debits, and `available` under a MED hold) takes no lock: no check depends on its balance.
 * A debit the unit itself funded (a payment whose tranche is released at once: pending +net,
 * then pending -net) takes no lock: it cannot take the balance below what other units left.
 * Inside a unit, `accountBalance` (read to size a refund) takes the same lock, and the tranche
 * reads lock their row (`FOR UPDATE`): every unit that reads them writes from what it read.
 *
 * The domain checks an idempotency key (`entryByKey`) before posting; two units posting the same
 * key at once both pass that check, and the second's insert then fails on the unique index once
 * the first commits. That failure is turned into a serialisation failure, so the store runs the
 * unit again and it finds the entry (a no-op, as on SQLite). Likewise a paid charge's tranche.
 */
import type { LedgerEntryRow, LedgerLineRow, LedgerTrancheRow } from "../rows";
import type { LedgerPosting, LedgerRepo, MerchantBalance } from "../port/ledger";
import type { PgContext } from "./context";
import { ledgerScan } from "./ledger-scan";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";

/** Builds the ledger repository on `ctx`. */
export function ledgerRepo(ctx: PgContext): LedgerRepo {
  const { sql } = ctx;
  /**
   * Debit locks this unit already holds (`<merchant key>|<ledger account>`): taking one twice is a wasted round trip.
   */
  const held = new Set<string>();
  /** What this unit's postings added to each ledger account so far (same keys, minor units). */
  const ownNet = new Map<string, number>();
  const forUpdate = ctx.inUnit ? sql`for update` : sql``;

  /** Takes (in a stable order, against deadlocks) the debit locks of `accounts` of one merchant this unit lacks. */
  async function lockDebits(
    accountId: string,
    livemode: boolean,
    currency: string,
    accounts: Iterable<string>,
  ): Promise<void> {
    const merchant = `${accountId}:${livemode}:${currency}`;
    const missing = [...new Set(accounts)].filter((a) => !held.has(`${merchant}|${a}`)).sort();
    if (missing.length === 0) return;
    await sql`select pg_advisory_xact_lock(hashtext(${merchant}), hashtext(a)) from unnest(${missing}::text[]) with ordinality as x(a, i) order by i`;
    if (ctx.inUnit) for (const a of missing) held.add(`${merchant}|${a}`);
  }

  return {
    async entryByKey(key) {
      return rowOf<LedgerEntryRow>(await sql`select * from ledger_entries where idempotency_key = ${key}`);
    },

    async entryLines(entryId) {
      return rowsOf<LedgerLineRow>(await sql`select * from ledger_lines where entry_id = ${entryId} order by id`);
    },

    async accountBalance(accountId, livemode, currency, ledgerAccount) {
      // In a unit the balance is read to decide a debit (refunds): under the debit lock, so no
      // other debit of this account slips in between the read and the posting.
      if (ctx.inUnit) await lockDebits(accountId, livemode, currency, [ledgerAccount]);
      return (
        numberOf(
          await sql`select coalesce(sum(balance), 0) from ledger_balances
            where account_id = ${accountId} and livemode = ${livemode} and currency = ${currency} and ledger_account = ${ledgerAccount}`,
        ) ?? 0
      );
    },

    async post(e) {
      // A debit line needs the lock unless what this unit added to its ledger account, this
      // line included, stays >= 0 (then the balance cannot end below what other units left).
      const merchant = `${e.accountId}:${e.livemode}:${e.currency}`;
      const net = new Map<string, number>();
      const debited: string[] = [];
      for (const l of e.lines) {
        const key = `${merchant}|${l.ledgerAccount}`;
        const running = (net.get(key) ?? ownNet.get(key) ?? 0) + l.amount;
        net.set(key, running);
        if (l.amount < 0 && running < 0 && !l.mayGoNegative) debited.push(l.ledgerAccount);
      }
      if (debited.length) await lockDebits(e.accountId, e.livemode, e.currency, debited);
      const after = await retriedOnDuplicate(postStatement(ctx, e), "ledger_entries_key_uq");
      if (ctx.inUnit) for (const [key, v] of net) ownNet.set(key, v);
      return after;
    },

    async merchantBalances(accountId, livemode, currencies) {
      if (currencies.length === 0) return [];
      // One statement for every currency: the balances per ledger account (shards summed), then
      // the earliest open release per currency.
      const rows = await sql`
        select 'b' as k, currency, ledger_account, sum(balance) as v, null::bigint as at from ledger_balances
          where account_id = ${accountId} and livemode = ${livemode} and currency = any(${currencies}::text[])
            and ledger_account in ('available', 'pending', 'retained')
          group by currency, ledger_account
        union all
        (select distinct on (currency) 'r', currency, null, sum(remaining), release_at from ledger_tranches
          where account_id = ${accountId} and livemode = ${livemode} and currency = any(${currencies}::text[])
            and released_at is null and remaining > 0
          group by currency, release_at order by currency, release_at)`;
      const by = new Map<string, MerchantBalance>();
      for (const c of currencies)
        by.set(c, { available: 0, pending: 0, retained: 0, nextReleaseAt: null, nextReleaseAmount: null });
      for (const r of rows as {
        k: string;
        currency: string;
        ledger_account: string | null;
        v: string;
        at: string | null;
      }[]) {
        const b = by.get(r.currency)!;
        if (r.k === "r") {
          b.nextReleaseAt = Number(r.at);
          b.nextReleaseAmount = Number(r.v);
        } else b[r.ledger_account as "available" | "pending" | "retained"] = Number(r.v);
      }
      return currencies.map((c) => ({ ...by.get(c)! }));
    },

    async merchantBalanceSheet(accountId, livemode, first) {
      const currencies = [first, ...(await this.merchantCurrencies(accountId, livemode)).filter((c) => c !== first)];
      const balances = await this.merchantBalances(accountId, livemode, currencies);
      return currencies.map((currency, i) => ({ currency, balance: balances[i]! }));
    },

    async merchantCurrencies(accountId, livemode) {
      const rows = await sql`select distinct currency from ledger_balances
        where account_id = ${accountId} and livemode = ${livemode} and ledger_account in ('available', 'pending', 'retained') order by currency`;
      return (rows as { currency: string }[]).map((r) => r.currency);
    },

    async trancheOfTransaction(accountId, livemode, transactionId) {
      return rowOf<LedgerTrancheRow>(
        await sql`select * from ledger_tranches where account_id = ${accountId} and livemode = ${livemode} and transaction_id = ${transactionId} ${forUpdate}`,
      );
    },

    async tranche(trancheId) {
      return rowOf<LedgerTrancheRow>(await sql`select * from ledger_tranches where id = ${trancheId} ${forUpdate}`);
    },

    async insertTranche(row) {
      await retriedOnDuplicate(sql`insert into ledger_tranches ${sql(toColumns(row))}`, "ledger_tranches_tx_uq");
    },

    async setTrancheRemaining(trancheId, remaining) {
      await sql`update ledger_tranches set remaining = ${remaining} where id = ${trancheId} and released_at is null`;
    },

    async markTrancheReleased(trancheId, now) {
      await sql`update ledger_tranches set remaining = 0, released_at = ${now} where id = ${trancheId}`;
    },

    async scan() {
      return ledgerScan(ctx.sql);
    },

    async statementEntries(q) {
      // Newest first through ledger_entries_statement_idx; the lateral sums stop at the limit.
      const after = q.after
        ? q.inclusive
          ? sql`and (e.created_at < ${q.after.createdAt} or (e.created_at = ${q.after.createdAt} and e.id <= ${q.after.id}))`
          : sql`and (e.created_at < ${q.after.createdAt} or (e.created_at = ${q.after.createdAt} and e.id < ${q.after.id}))`
        : sql``;
      const rows = (await sql`
        select e.id, e.kind, e.cause_kind, e.cause_id, e.created_at, s.total, s.fee, s.release_at
        from ledger_entries e
        cross join lateral (
          select coalesce(sum(l.amount) filter (where l.ledger_account in ('available', 'pending')), 0) as total,
                 coalesce(sum(l.amount) filter (where l.ledger_account = 'platform_fee_revenue'), 0) as fee,
                 max(t.release_at) filter (where l.ledger_account = 'pending' and l.amount > 0) as release_at
          from ledger_lines l left join ledger_tranches t on t.id = l.tranche_id
          where l.entry_id = e.id) s
        where e.account_id = ${q.accountId} and e.livemode = ${q.livemode} and e.currency = ${q.currency}
          and e.created_at between ${q.fromMs} and ${q.toMs} ${after}
          and (s.total <> 0 or s.fee <> 0)
        order by e.created_at desc, e.id desc
        limit ${q.limit}`) as Record<string, unknown>[];
      return rows.map((r) => ({
        id: String(r.id),
        kind: String(r.kind),
        causeKind: String(r.cause_kind),
        causeId: String(r.cause_id),
        createdAt: Number(r.created_at),
        total: Number(r.total),
        fee: Number(r.fee),
        releaseAt: r.release_at === null ? null : Number(r.release_at),
      }));
    },

    async statementPosition(accountId, livemode, entryId) {
      return rowOf<{ createdAt: number; id: string; currency: string }>(
        await sql`select created_at, id, currency from ledger_entries where id = ${entryId} and account_id = ${accountId} and livemode = ${livemode}`,
      );
    },

    async statementTotalAt(accountId, livemode, currency, at) {
      const span = (await sql`select
          (select min(created_at) from ledger_entries where account_id = ${accountId} and livemode = ${livemode} and currency = ${currency}) as first,
          (select max(created_at) from ledger_entries where account_id = ${accountId} and livemode = ${livemode} and currency = ${currency}) as last`) as {
        first: string | null;
        last: string | null;
      }[];
      const first = span[0]?.first;
      const last = span[0]?.last;
      if (first === null || first === undefined || last === null || last === undefined) return 0;
      if (at.createdAt - Number(first) < Number(last) - at.createdAt) {
        // The older side is shorter: the wallet lines of the entries up to the position (one statement, one snapshot).
        const upTo =
          at.id === undefined
            ? sql`e.created_at <= ${at.createdAt}`
            : sql`(e.created_at < ${at.createdAt} or (e.created_at = ${at.createdAt} and e.id <= ${at.id}))`;
        return (
          numberOf(
            await sql`select coalesce(sum(l.amount), 0) from ledger_entries e join ledger_lines l on l.entry_id = e.id and l.ledger_account in ('available', 'pending')
              where e.account_id = ${accountId} and e.livemode = ${livemode} and e.currency = ${currency} and ${upTo}`,
          ) ?? 0
        );
      }
      const later =
        at.id === undefined
          ? sql`e.created_at > ${at.createdAt}`
          : sql`(e.created_at > ${at.createdAt} or (e.created_at = ${at.createdAt} and e.id > ${at.id}))`;
      return (
        numberOf(
          await sql`select
            (select coalesce(sum(balance), 0) from ledger_balances
              where account_id = ${accountId} and livemode = ${livemode} and currency = ${currency} and ledger_account in ('available', 'pending'))
          - (select coalesce(sum(l.amount), 0) from ledger_entries e join ledger_lines l on l.entry_id = e.id and l.ledger_account in ('available', 'pending')
              where e.account_id = ${accountId} and e.livemode = ${livemode} and e.currency = ${currency} and ${later})`,
        ) ?? 0
      );
    },
  };
}

/**
 * `statement`, whose violation of the unique index `constraint` (a concurrent unit wrote the same
 * key and committed) becomes SQLSTATE 40001: the store retries the whole unit (./index.ts).
 */
async function retriedOnDuplicate<T>(statement: Promise<T>, constraint: string): Promise<T> {
  try {
    return await statement;
  } catch (err) {
    const e = err as { errno?: unknown; constraint?: unknown };
    if (String(e.errno) === "23505" && e.constraint === constraint)
      throw Object.assign(new Error(`a concurrent unit wrote the same ${constraint} key: running the unit again`), {
        errno: "40001",
        cause: err,
      });
    throw err;
  }
}

/**
 * Writes the entry, its lines (ids in line order) and the session shard's balance rows in one
 * statement, and returns the balance after each line. Lines of one ledger account (a refund
 * drawing from several tranches) add to their row once, in ledger-account order (two units on
 * colliding shards lock rows in the same order); each line's "after" is then the account's sum
 * before the entry plus the running total of its lines. The other shards are read in the
 * statement's snapshot, taken after any debit lock was granted (`post` above).
 */
async function postStatement(ctx: PgContext, e: LedgerPosting): Promise<number[]> {
  const { sql } = ctx;
  const totals = new Map<string, number>();
  for (const l of e.lines) totals.set(l.ledgerAccount, (totals.get(l.ledgerAccount) ?? 0) + l.amount);
  const groups = [...totals.keys()].sort();
  const rows = (await sql`
    with e as (
      insert into ledger_entries (id, account_id, livemode, currency, kind, cause_kind, cause_id, idempotency_key, meta, created_at)
      values (${e.id}, ${e.accountId}, ${e.livemode}, ${e.currency}, ${e.kind}, ${e.causeKind}, ${e.causeId}, ${e.idempotencyKey}, ${e.meta}, ${e.now})
    ), l as (
      insert into ledger_lines (entry_id, account_id, livemode, currency, ledger_account, amount, tranche_id)
      select ${e.id}, ${e.accountId}, ${e.livemode}, ${e.currency}, x.a, x.n, x.t
      from unnest(${e.lines.map((l) => l.ledgerAccount)}::text[], ${e.lines.map((l) => l.amount)}::bigint[], ${e.lines.map((l) => l.trancheId)}::text[])
        with ordinality as x(a, n, t, i)
      order by x.i
    ), b as (
      insert into ledger_balances as b (account_id, livemode, currency, ledger_account, balance, updated_at, shard)
      select ${e.accountId}, ${e.livemode}, ${e.currency}, g.a, g.n, ${e.now}, pg_backend_pid() & 1023
      from unnest(${groups}::text[], ${groups.map((g) => totals.get(g)!)}::bigint[]) with ordinality as g(a, n, i)
      order by g.i
      on conflict (account_id, livemode, currency, ledger_account, shard)
        do update set balance = b.balance + excluded.balance, updated_at = excluded.updated_at
      returning b.ledger_account, b.balance, b.shard
    )
    select b.ledger_account as a, b.balance + coalesce((
      select sum(o.balance) from ledger_balances o
      where o.account_id = ${e.accountId} and o.livemode = ${e.livemode} and o.currency = ${e.currency}
        and o.ledger_account = b.ledger_account and o.shard <> b.shard), 0) as total
    from b`) as { a: string; total: string }[];
  // Running balance per ledger account, starting from its sum before this entry.
  const running = new Map<string, number>();
  for (const r of rows) running.set(r.a, Number(r.total) - totals.get(r.a)!);
  return e.lines.map((l) => {
    const after = running.get(l.ledgerAccount)! + l.amount;
    running.set(l.ledgerAccount, after);
    return after;
  });
}
