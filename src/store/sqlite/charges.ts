/**
 * SQLite implementation of the charges repository (src/store/port/charges.ts): `transactions` and the create's account
 * read.
 */
import { and, desc, eq, getTableColumns, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { accounts, transactions } from "../../../db/schema";
import type { ChargeListQuery, ChargesRepo } from "../port/charges";
import type { TransactionRow } from "../rows";
import { chargeSideRepo } from "./charges-side";
import type { SqliteContext } from "./context";

const COLUMNS = Object.entries(getTableColumns(transactions)).map(([key, col]) => ({
  key: key as keyof TransactionRow,
  name: col.name,
  /** Schema default, used when a row leaves the column undefined (columns added later). */
  dflt:
    col.hasDefault && ["string", "number", "boolean"].includes(typeof col.default)
      ? (col.default as unknown)
      : undefined,
}));
/** Boolean columns (stored as 0/1). */
const BOOLEAN_KEYS = COLUMNS.filter((c) => getTableColumns(transactions)[c.key].dataType === "boolean").map(
  (c) => c.key,
);
const SELECT_LIST = COLUMNS.map((c) => `"${c.name}" as "${c.key}"`).join(", ");
const SCOPED_SQL = `select ${SELECT_LIST} from transactions where id = ? and account_id = ? and livemode = ?`;
/** One statement for any batch size: the txids as a JSON array (`tx_txid_uq`, probed per value). */
const BY_TXIDS_SQL = `select ${SELECT_LIST} from transactions where pix_txid is not null and pix_txid in (select value from json_each(?)) and account_id = ? and livemode = ?`;
const INSERT_SQL = `insert into transactions (${COLUMNS.map((c) => `"${c.name}"`).join(", ")}) values (${COLUMNS.map(() => "?").join(", ")})`;
const ACCOUNT_SQL =
  "select name, payer_lock_enabled, default_expires_in, pix_fee_bps, pix_fee_fixed, settlement_delay_seconds, customer_velocity_max, account_velocity_max, velocity_window_seconds from accounts where id = ?";

/**
 * Matches the partial index `tx_waiting_expiry_idx` (db/schema/charges.ts) term for term, so
 * SQLite uses it, plus: not a live PSP's charge (its status check confirms expiry; expiry.ts).
 * The statuses are the domain's `WAITING` group (src/domain/charges/model.ts), spelt as the index
 * spells them (test/charges/state-machine.test.ts checks both).
 */
const WAITING =
  "status in ('PENDING', 'WAITING_PAYMENT') and expires_at is not null and provider_connection_id is null";
const DUE_SQL = `select id from transactions where ${WAITING} and expires_at <= ? order by expires_at limit ?`;
const NEXT_SQL = `select min(expires_at) as at from transactions where ${WAITING} and expires_at > ?`;
const FIRST_SQL = `select min(expires_at) as at from transactions where ${WAITING}`;

function toRow(raw: Record<string, unknown> | null): TransactionRow | undefined {
  if (!raw) return undefined;
  for (const k of BOOLEAN_KEYS) raw[k] = raw[k] === 1 || raw[k] === true;
  return raw as unknown as TransactionRow;
}

function toSql(v: unknown): string | number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v as string | number;
}

/** Rows whose payer document (customer document or expected payer tax id) is `doc`. */
function byDocument(doc: string) {
  return or(eq(transactions.customerDocument, doc), eq(transactions.expectedPayerTaxId, doc));
}

/** Builds the charges repository on the adapter's connection `ctx`. */
export function chargesRepo(ctx: SqliteContext): ChargesRepo {
  const db = ctx.db;
  const byId = async (id: string) => db.select().from(transactions).where(eq(transactions.id, id)).get();
  return {
    async byScopedId(accountId, livemode, id) {
      return toRow(ctx.stmt(SCOPED_SQL).get(id, accountId, livemode ? 1 : 0) as Record<string, unknown> | null);
    },
    byId,
    lockForChange: byId,
    async byTxid(txid) {
      return db.select().from(transactions).where(eq(transactions.pixTxid, txid)).get();
    },
    async byTxids(accountId, livemode, txids) {
      if (txids.length === 0) return [];
      const rows = ctx.stmt(BY_TXIDS_SQL).all(JSON.stringify(txids), accountId, livemode ? 1 : 0) as Record<
        string,
        unknown
      >[];
      return rows.map((r) => toRow(r)!);
    },
    async insert(row) {
      ctx.stmt(INSERT_SQL).run(...COLUMNS.map((c) => toSql(row[c.key] === undefined ? c.dflt : row[c.key])));
    },
    async update(id, patch) {
      const row = db.update(transactions).set(patch).where(eq(transactions.id, id)).returning().get();
      if (!row) throw new Error(`no transaction ${id} to update`);
      return row;
    },
    async transition(id, fromStatus, patch) {
      return db
        .update(transactions)
        .set(patch)
        .where(and(eq(transactions.id, id), eq(transactions.status, fromStatus)))
        .returning()
        .get();
    },
    async countAlive(p) {
      const conds = [
        eq(transactions.accountId, p.accountId),
        eq(transactions.livemode, p.livemode),
        gte(transactions.createdAt, p.sinceMs),
        inArray(transactions.status, [...p.statuses]),
      ];
      if (p.document !== undefined) conds.push(byDocument(p.document)!);
      return db
        .select({ n: sql<number>`count(*)` })
        .from(transactions)
        .where(and(...conds))
        .get()!.n;
    },
    async list(q: ChargeListQuery) {
      const conds: (SQL | undefined)[] = [
        eq(transactions.accountId, q.accountId),
        eq(transactions.livemode, q.livemode),
        sql`${transactions.paymentMethods} like '%"PIX"%'`,
      ];
      if (q.statuses) conds.push(inArray(transactions.status, q.statuses));
      if (q.createdFromMs !== undefined) conds.push(gte(transactions.createdAt, q.createdFromMs));
      if (q.createdToMs !== undefined) conds.push(lte(transactions.createdAt, q.createdToMs));
      if (q.document !== undefined) conds.push(byDocument(q.document));
      if (q.after)
        conds.push(
          or(
            lt(transactions.createdAt, q.after.createdAt),
            and(eq(transactions.createdAt, q.after.createdAt), lt(transactions.id, q.after.id)),
          ),
        );
      return db
        .select()
        .from(transactions)
        .where(and(...conds))
        .orderBy(desc(transactions.createdAt), desc(transactions.id))
        .limit(q.limit + 1)
        .all();
    },
    async dueForExpiry(nowMs, limit) {
      return (ctx.stmt(DUE_SQL).all(nowMs, limit) as { id: string }[]).map((r) => r.id);
    },
    async nextExpiryAfter(nowMs) {
      return (ctx.stmt(NEXT_SQL).get(nowMs) as { at: number | null } | null)?.at ?? null;
    },
    async firstExpiry() {
      return (ctx.stmt(FIRST_SQL).get() as { at: number | null } | null)?.at ?? null;
    },
    async accountForCreate(accountId) {
      const a = ctx.stmt(ACCOUNT_SQL).get(accountId) as Record<string, number | string | null> | null;
      if (!a) return undefined;
      return {
        name: a.name as string,
        settings: {
          payer_lock_enabled: a.payer_lock_enabled === 1,
          default_expires_in: a.default_expires_in as number,
          pix_fee_bps: a.pix_fee_bps as number,
          pix_fee_fixed: a.pix_fee_fixed as number,
          settlement_delay_seconds: a.settlement_delay_seconds as number,
          customer_velocity_max: a.customer_velocity_max as number | null,
          account_velocity_max: a.account_velocity_max as number | null,
          velocity_window_seconds: a.velocity_window_seconds as number,
        },
      };
    },
    async merchantName(accountId) {
      return db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).get()?.name;
    },
    ...chargeSideRepo(ctx),
  };
}
