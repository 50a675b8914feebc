/**
 * PostgreSQL implementation of the med repository (src/store/port/med.ts): cases, evidence, URL
 * secret, the charge's MED fields.
 *
 * Every unit that reads a case or an evidence row writes from what it read (a status check, then
 * the update), so inside a unit those reads lock the row (`FOR UPDATE`): two endings of one case,
 * or two confirmations of one upload, run one after the other as on SQLite's single writer.
 * `activeCaseOfTransaction` inside a unit first locks the disputed transaction, so two openings
 * on one charge cannot both find no active case (at most one active case per transaction).
 */
import type { MedCaseRow, MedEvidenceRow } from "../rows";
import type { MedRepo } from "../port/med";
import type { PgContext } from "./context";
import { rowOf, rowsOf, toColumns } from "./map";

/** Builds the med repository on `ctx`. */
export function medRepo(ctx: PgContext): MedRepo {
  const { sql } = ctx;
  const forUpdate = ctx.inUnit ? sql`for update` : sql``;
  const caseById = async (id: string) =>
    rowOf<MedCaseRow>(await sql`select * from med_cases where id = ${id} ${forUpdate}`);
  const evidenceById = async (id: string) =>
    rowOf<MedEvidenceRow>(await sql`select * from med_evidence where id = ${id} ${forUpdate}`);
  const secretOf = async (name: string) =>
    ((await sql`select secret from med_secrets where name = ${name}`) as { secret: string }[])[0]?.secret;
  return {
    async insertCase(row) {
      return rowOf<MedCaseRow>(await sql`insert into med_cases ${sql(toColumns(row))} returning *`)!;
    },

    async caseInScope(scope, id) {
      return rowOf<MedCaseRow>(
        await sql`select * from med_cases where id = ${id} and account_id = ${scope.accountId} and livemode = ${scope.livemode} ${forUpdate}`,
      );
    },

    caseById,

    async caseByExternalId(accountId, externalId) {
      return rowOf<MedCaseRow>(
        await sql`select * from med_cases where account_id = ${accountId} and external_id = ${externalId}`,
      );
    },

    async activeCaseOfTransaction(transactionId, finalStatuses) {
      // A separate statement after the lock: its snapshot sees a case committed by whoever held it.
      if (ctx.inUnit) await sql`select 1 from transactions where id = ${transactionId} for update`;
      return rowOf<MedCaseRow>(
        await sql`select * from med_cases where transaction_id = ${transactionId} and status <> all(${[...finalStatuses]}::text[]) limit 1`,
      );
    },

    async updateCase(id, patch) {
      const cols = toColumns(patch);
      if (Object.keys(cols).length === 0) return (await caseById(id))!;
      return rowOf<MedCaseRow>(await sql`update med_cases set ${sql(cols)} where id = ${id} returning *`)!;
    },

    async listCases(scope, f) {
      const status = f.status ? sql`and status = ${f.status}` : sql``;
      const type = f.type ? sql`and type = ${f.type}` : sql``;
      const tx = f.transactionId ? sql`and transaction_id = ${f.transactionId}` : sql``;
      const after = f.createdAfter !== undefined ? sql`and created_at > ${f.createdAfter}` : sql``;
      const before = f.createdBefore !== undefined ? sql`and created_at < ${f.createdBefore}` : sql``;
      const cursor = f.after ? sql`and (created_at, id) < (${f.after.createdAt}, ${f.after.id})` : sql``;
      return rowsOf<MedCaseRow>(
        await sql`select * from med_cases where account_id = ${scope.accountId} and livemode = ${scope.livemode}
          ${status} ${type} ${tx} ${after} ${before} ${cursor}
          order by created_at desc, id desc limit ${f.limit + 1}`,
      );
    },

    async incrementEvidenceCount(caseId, now) {
      await sql`update med_cases set evidence_count = evidence_count + 1, updated_at = ${now} where id = ${caseId}`;
    },

    async chargeMed(transactionId) {
      const row = (
        (await sql`select metadata from transactions where id = ${transactionId}`) as { metadata: string }[]
      )[0];
      return medBlock(parseMetadata(row?.metadata));
    },

    async writeChargeMed(transactionId, med, now) {
      // Read-modify-write of the JSON text under the row lock: the other keys keep their order and
      // text exactly as the SQLite twin writes them (jsonb would reorder and reformat them).
      const row = (
        (await sql`select metadata from transactions where id = ${transactionId} for update`) as { metadata: string }[]
      )[0];
      const metadata = parseMetadata(row?.metadata);
      metadata.med = med;
      await sql`update transactions set metadata = ${JSON.stringify(metadata)}, updated_at = ${now} where id = ${transactionId}`;
    },

    async insertEvidence(row) {
      return rowOf<MedEvidenceRow>(await sql`insert into med_evidence ${sql(toColumns(row))} returning *`)!;
    },

    async evidenceOfCase(caseId, id) {
      return rowOf<MedEvidenceRow>(await sql`select * from med_evidence where id = ${id} and case_id = ${caseId}`);
    },

    evidenceById,

    async updateEvidence(id, patch) {
      const cols = toColumns(patch);
      if (Object.keys(cols).length === 0) return (await evidenceById(id))!;
      return rowOf<MedEvidenceRow>(await sql`update med_evidence set ${sql(cols)} where id = ${id} returning *`)!;
    },

    async confirmedEvidence(caseId) {
      return rowsOf<MedEvidenceRow>(
        await sql`select * from med_evidence where case_id = ${caseId} and state = 'confirmed' order by uploaded_at desc, id desc`,
      );
    },

    secret: secretOf,

    async keepSecret(name, secret, now) {
      await sql`insert into med_secrets (name, secret, created_at) values (${name}, ${secret}, ${now}) on conflict (name) do nothing`;
      return (await secretOf(name))!;
    },
  };
}

/** The transaction's metadata as an object to write back (`{}` when absent or unreadable), as the SQLite twin reads it. */
function parseMetadata(text: string | undefined): Record<string, unknown> {
  try {
    return JSON.parse(text ?? "{}");
  } catch {
    return {};
  }
}

/** The `med` block of parsed metadata, or `{}`. */
function medBlock(metadata: Record<string, unknown> | null): Record<string, unknown> {
  const med = metadata?.med;
  return med && typeof med === "object" ? (med as Record<string, unknown>) : {};
}
