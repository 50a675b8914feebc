/**
 * Tables of the reconciliation group (extensions.md "Statement, exports and reconciliation" and
 * "Live MED from the PSP"; src/domain/reconciliation): the stored result of each São Paulo day
 * compared with the PSP, and the MED infractions read from an `efi` connection (one row per
 * `idInfracao`, whether or not Cofre knows the end-to-end id it names).
 */
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

/** One reconciled São Paulo day of an account (the latest run of that day). */
export const reconciliations = sqliteTable(
  "reconciliations",
  {
    accountId: text("account_id").notNull(),
    /** `YYYY-MM-DD`, a São Paulo calendar day. */
    date: text("date").notNull(),
    /** The provider connection (`ppc_...`) that was asked. */
    connectionId: text("connection_id").notNull(),
    /** matched | mismatched */
    status: text("status").notNull(),
    /** JSON of the public result `{date, status, psp, cofre, differences, healed}`. */
    result: text("result").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.date] })],
);

/** A MED infraction listed by an `efi` connection (`GET /v2/gn/infracoes`). */
export const pspInfractions = sqliteTable(
  "psp_infractions",
  {
    connectionId: text("connection_id").notNull(),
    /** Efí's `idInfracao`. */
    id: text("id").notNull(),
    accountId: text("account_id").notNull(),
    endToEndId: text("end_to_end_id").notNull(),
    /** The infraction's `valor`, centavos. */
    amount: integer("amount").notNull(),
    /** ABERTA | EM_DEFESA | ACEITA | REJEITADA | CANCELADA_EFI (as last read). */
    status: text("status").notNull(),
    /** The MED case opened for it (`med_...`), or null while its end-to-end id is unknown. */
    caseId: text("case_id"),
    /** Efí's `criadoEm`, epoch ms. */
    pspCreatedAt: integer("psp_created_at").notNull(),
    /** When the operator's defence was forwarded (`POST .../defesa` answered), epoch ms. */
    defenseSentAt: integer("defense_sent_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.id] }),
    index("psp_infractions_account_idx").on(t.accountId, t.pspCreatedAt),
  ],
);
