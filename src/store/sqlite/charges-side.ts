/** SQLite implementation of the charges repository's side tables: create intents, Pix signing keys, sandbox provider faults. */
import { and, asc, eq, lte } from "drizzle-orm";
import { createIntents, pixSigningKeys, sandboxProviderFaults } from "../../../db/schema";
import type { ChargesRepo } from "../port/charges";
import type { SqliteContext } from "./context";

type SideMethods = Pick<
  ChargesRepo,
  "intentOf" | "staleIntents" | "hasOpenIntents" | "openIntent" | "dropIntent" | "signingKey" | "addSigningKey" | "setFaults" | "faultsLeft" | "takeFault"
>;

const FAULTS_LEFT_SQL = "select remaining from sandbox_provider_faults where account_id = ?";

/** The intent, signing-key and fault methods of the charges repository on `ctx`. */
export function chargeSideRepo(ctx: SqliteContext): SideMethods {
  const db = ctx.db;
  return {
    async intentOf(k) {
      return db
        .select()
        .from(createIntents)
        .where(and(eq(createIntents.accountId, k.accountId), eq(createIntents.livemode, k.livemode), eq(createIntents.scope, k.scope), eq(createIntents.key, k.key)))
        .get();
    },
    async staleIntents(beforeMs, limit) {
      return db.select().from(createIntents).where(lte(createIntents.createdAt, beforeMs)).orderBy(asc(createIntents.createdAt)).limit(limit).all();
    },
    async hasOpenIntents() {
      return db.select({ id: createIntents.id }).from(createIntents).limit(1).get() !== undefined;
    },
    async openIntent(row) {
      db.insert(createIntents).values(row).run();
    },
    async dropIntent(id) {
      return db.delete(createIntents).where(eq(createIntents.id, id)).returning({ id: createIntents.id }).all().length === 1;
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
      if (row.remaining === 1) db.delete(sandboxProviderFaults).where(eq(sandboxProviderFaults.accountId, accountId)).run();
      else db.update(sandboxProviderFaults).set({ remaining: row.remaining - 1 }).where(eq(sandboxProviderFaults.accountId, accountId)).run();
      return row.mode;
    },
  };
}
