/**
 * SQLite implementation of the med repository (src/store/port/med.ts): cases, evidence, URL secret, the charge's MED
 * fields.
 */
import { and, desc, eq, gt, lt, notInArray, or, sql, type SQL } from "drizzle-orm";
import { medCases, medEvidence, medSecrets, transactions } from "../../../db/schema";
import type { MedRepo } from "../port/med";
import type { SqliteContext } from "./context";

/** Builds the med repository on the adapter's connection `ctx`. */
export function medRepo(ctx: SqliteContext): MedRepo {
  const { db } = ctx;
  const caseById = (id: string) => db.select().from(medCases).where(eq(medCases.id, id)).get();
  const evidenceById = (id: string) => db.select().from(medEvidence).where(eq(medEvidence.id, id)).get();
  const secretOf = (name: string) => db.select().from(medSecrets).where(eq(medSecrets.name, name)).get()?.secret;
  return {
    async insertCase(row) {
      db.insert(medCases).values(row).run();
      return caseById(row.id)!;
    },

    async caseInScope(scope, id) {
      return db
        .select()
        .from(medCases)
        .where(and(eq(medCases.id, id), eq(medCases.accountId, scope.accountId), eq(medCases.livemode, scope.livemode)))
        .get();
    },

    async caseById(id) {
      return caseById(id);
    },

    async caseByExternalId(accountId, externalId) {
      return db
        .select()
        .from(medCases)
        .where(and(eq(medCases.accountId, accountId), eq(medCases.externalId, externalId)))
        .get();
    },

    async activeCaseOfTransaction(transactionId, finalStatuses) {
      return db
        .select()
        .from(medCases)
        .where(and(eq(medCases.transactionId, transactionId), notInArray(medCases.status, [...finalStatuses])))
        .get();
    },

    async updateCase(id, patch) {
      return db.update(medCases).set(patch).where(eq(medCases.id, id)).returning().get()!;
    },

    async listCases(scope, f) {
      const where: SQL[] = [eq(medCases.accountId, scope.accountId), eq(medCases.livemode, scope.livemode)];
      if (f.status) where.push(eq(medCases.status, f.status));
      if (f.type) where.push(eq(medCases.type, f.type));
      if (f.transactionId) where.push(eq(medCases.transactionId, f.transactionId));
      if (f.createdAfter !== undefined) where.push(gt(medCases.createdAt, f.createdAfter));
      if (f.createdBefore !== undefined) where.push(lt(medCases.createdAt, f.createdBefore));
      if (f.after)
        where.push(
          or(
            lt(medCases.createdAt, f.after.createdAt),
            and(eq(medCases.createdAt, f.after.createdAt), lt(medCases.id, f.after.id)),
          )!,
        );
      return db
        .select()
        .from(medCases)
        .where(and(...where))
        .orderBy(desc(medCases.createdAt), desc(medCases.id))
        .limit(f.limit + 1)
        .all();
    },

    async incrementEvidenceCount(caseId, now) {
      db.update(medCases)
        .set({ evidenceCount: sql`${medCases.evidenceCount} + 1`, updatedAt: now })
        .where(eq(medCases.id, caseId))
        .run();
    },

    async chargeMed(transactionId) {
      const row = db
        .select({ metadata: transactions.metadata })
        .from(transactions)
        .where(eq(transactions.id, transactionId))
        .get();
      try {
        const med = JSON.parse(row?.metadata ?? "{}").med;
        return med && typeof med === "object" ? med : {};
      } catch {
        return {};
      }
    },

    async writeChargeMed(transactionId, med, now) {
      const row = db
        .select({ metadata: transactions.metadata })
        .from(transactions)
        .where(eq(transactions.id, transactionId))
        .get();
      let metadata: Record<string, unknown> = {};
      try {
        metadata = JSON.parse(row?.metadata ?? "{}");
      } catch {}
      metadata.med = med;
      db.update(transactions)
        .set({ metadata: JSON.stringify(metadata), updatedAt: now })
        .where(eq(transactions.id, transactionId))
        .run();
    },

    async insertEvidence(row) {
      db.insert(medEvidence).values(row).run();
      return evidenceById(row.id)!;
    },

    async evidenceOfCase(caseId, id) {
      return db
        .select()
        .from(medEvidence)
        .where(and(eq(medEvidence.id, id), eq(medEvidence.caseId, caseId)))
        .get();
    },

    async evidenceById(id) {
      return evidenceById(id);
    },

    async updateEvidence(id, patch) {
      return db.update(medEvidence).set(patch).where(eq(medEvidence.id, id)).returning().get()!;
    },

    async confirmedEvidence(caseId) {
      return db
        .select()
        .from(medEvidence)
        .where(and(eq(medEvidence.caseId, caseId), eq(medEvidence.state, "confirmed")))
        .orderBy(desc(medEvidence.uploadedAt), desc(medEvidence.id))
        .all();
    },

    async secret(name) {
      return secretOf(name);
    },

    async keepSecret(name, secret, now) {
      db.insert(medSecrets).values({ name, secret, createdAt: now }).onConflictDoNothing().run();
      return secretOf(name)!;
    },
  };
}
