/**
 * SQLite implementation of the charges repository's side tables: create intents, Pix signing keys, sandbox provider
 * faults.
 */
import { asc, eq, lte } from "drizzle-orm";
import { createIntents, pixSigningKeys, sandboxProviderFaults } from "../../../db/schema";
import type { ChargesRepo } from "../port/charges";
import type { CreateIntentRow } from "../rows";
import type { SqliteContext } from "./context";

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

const FAULTS_LEFT_SQL = "select remaining from sandbox_provider_faults where account_id = ?";
// The live create path's intent statements (every live create runs all three): raw prepared
// statements, as CONVENTIONS "Hot paths" asks (drizzle's builder cost ~0.1 ms a request here).
const INTENT_COLUMNS =
  "id, account_id as accountId, livemode, scope, key, request_hash as requestHash, txid, transaction_id as transactionId, connection_id as connectionId, row, view, created_at as createdAt";
const INTENT_OF_SQL = `select ${INTENT_COLUMNS} from create_intents where account_id = ? and livemode = ? and scope = ? and key = ?`;
const OPEN_INTENT_SQL =
  "insert into create_intents (id, account_id, livemode, scope, key, request_hash, txid, transaction_id, connection_id, row, view, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const DROP_INTENT_SQL = "delete from create_intents where id = ?";

/** The intent, signing-key and fault methods of the charges repository on `ctx`. */
export function chargeSideRepo(ctx: SqliteContext): SideMethods {
  const db = ctx.db;
  return {
    async intentOf(k) {
      const r = ctx.stmt(INTENT_OF_SQL).get(k.accountId, k.livemode ? 1 : 0, k.scope, k.key) as
        | (Omit<CreateIntentRow, "livemode"> & { livemode: number })
        | null;
      return r ? { ...r, livemode: r.livemode === 1 } : undefined;
    },
    async staleIntents(beforeMs, limit) {
      return db
        .select()
        .from(createIntents)
        .where(lte(createIntents.createdAt, beforeMs))
        .orderBy(asc(createIntents.createdAt))
        .limit(limit)
        .all();
    },
    async hasOpenIntents() {
      return db.select({ id: createIntents.id }).from(createIntents).limit(1).get() !== undefined;
    },
    async openIntent(r) {
      ctx
        .stmt(OPEN_INTENT_SQL)
        .run(
          r.id,
          r.accountId,
          r.livemode ? 1 : 0,
          r.scope,
          r.key,
          r.requestHash,
          r.txid,
          r.transactionId,
          r.connectionId,
          r.row,
          r.view,
          r.createdAt,
        );
    },
    async dropIntent(id) {
      return ctx.stmt(DROP_INTENT_SQL).run(id).changes === 1;
    },
    async signingKey() {
      return db.select().from(pixSigningKeys).orderBy(pixSigningKeys.createdAt).limit(1).get();
    },
    async addSigningKey(row) {
      db.insert(pixSigningKeys).values(row).run();
    },
    async setFaults(accountId, mode, count, updatedAt) {
      db.insert(sandboxProviderFaults)
        .values({ accountId, mode, remaining: count, updatedAt })
        .onConflictDoUpdate({ target: sandboxProviderFaults.accountId, set: { mode, remaining: count, updatedAt } })
        .run();
    },
    async faultsLeft(accountId) {
      return (ctx.stmt(FAULTS_LEFT_SQL).get(accountId) as { remaining: number } | null)?.remaining ?? 0;
    },
    async takeFault(accountId) {
      const row = db.select().from(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).get();
      if (!row || row.remaining <= 0) return null;
      if (row.remaining === 1)
        db.delete(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).run();
      else
        db.update(sandboxProviderFaults)
          .set({ remaining: row.remaining - 1 })
          .where(eq(sandboxProviderFaults.accountId, accountId))
          .run();
      return row.mode;
    },
  };
}
