/**
 * Migrations embedded in the executable: the journal and every SQL file are imported as text,
 * so `dist/cofre` needs no folder beside it (drizzle's `migrate()` reads a folder at runtime).
 * Adding a migration means adding its import to EMBEDDED; test/foundation/storage.test.ts
 * ("embedded migrations") compares this list with drizzle's own `readMigrationFiles` and with
 * every SQL file of db/migrations.
 */
import type { MigrationMeta } from "drizzle-orm/migrator";
import journal from "../../../db/migrations/meta/_journal.json";
import m0000 from "../../../db/migrations/0000_init.sql" with { type: "text" };
import m0001 from "../../../db/migrations/0001_lean_indexes.sql" with { type: "text" };
import m0002 from "../../../db/migrations/0002_account_legal_identity.sql" with { type: "text" };
import m0003 from "../../../db/migrations/0003_pix_provider_connections.sql" with { type: "text" };
import m0004 from "../../../db/migrations/0004_transaction_provider_connection.sql" with { type: "text" };
import m0005 from "../../../db/migrations/0005_create_intents.sql" with { type: "text" };
import m0006 from "../../../db/migrations/0006_audit_log_columns_delivery_event_index.sql" with { type: "text" };
import m0007 from "../../../db/migrations/0007_audit_log_key_columns_nullable.sql" with { type: "text" };
import m0008 from "../../../db/migrations/0008_audit_log_move_dashboard_rows.sql" with { type: "text" };
import m0009 from "../../../db/migrations/0009_unpaid_methods_index.sql" with { type: "text" };
import m0010 from "../../../db/migrations/0010_write_shard_columns_job_wake_at.sql" with { type: "text" };
import m0011 from "../../../db/migrations/0011_write_shards_in_primary_keys.sql" with { type: "text" };
import m0012 from "../../../db/migrations/0012_shared_instance_state.sql" with { type: "text" };
import m0013 from "../../../db/migrations/0013_idempotency_claim_holder.sql" with { type: "text" };
import m0014 from "../../../db/migrations/0014_payouts.sql" with { type: "text" };
import m0015 from "../../../db/migrations/0015_card_provider.sql" with { type: "text" };
import m0016 from "../../../db/migrations/0016_reconciliation.sql" with { type: "text" };
import m0017 from "../../../db/migrations/0017_events_api.sql" with { type: "text" };
import m0018 from "../../../db/migrations/0018_merchant_profile.sql" with { type: "text" };
import type { Db } from "./client";

/** Migration SQL text by journal tag. */
export const EMBEDDED: Record<string, string> = {
  "0000_init": m0000,
  "0001_lean_indexes": m0001,
  "0002_account_legal_identity": m0002,
  "0003_pix_provider_connections": m0003,
  "0004_transaction_provider_connection": m0004,
  "0005_create_intents": m0005,
  "0006_audit_log_columns_delivery_event_index": m0006,
  "0007_audit_log_key_columns_nullable": m0007,
  "0008_audit_log_move_dashboard_rows": m0008,
  "0009_unpaid_methods_index": m0009,
  "0010_write_shard_columns_job_wake_at": m0010,
  "0011_write_shards_in_primary_keys": m0011,
  "0012_shared_instance_state": m0012,
  "0013_idempotency_claim_holder": m0013,
  "0014_payouts": m0014,
  "0015_card_provider": m0015,
  "0016_reconciliation": m0016,
  "0017_events_api": m0017,
  "0018_merchant_profile": m0018,
};

/** The embedded migrations in the shape drizzle's migrator consumes (same hashing as drizzle). */
export function embeddedMigrations(): MigrationMeta[] {
  return journal.entries.map((e) => {
    const query = EMBEDDED[e.tag];
    if (query === undefined) throw new Error(`migration ${e.tag} is in the journal but not embedded`);
    return {
      sql: query.split("--> statement-breakpoint"),
      bps: e.breakpoints,
      folderMillis: e.when,
      hash: new Bun.CryptoHasher("sha256").update(query).digest("hex"),
    };
  });
}

/** Applies every pending embedded migration (idempotent; safe on every start). */
export function runMigrations(db: Db): void {
  const d = db as unknown as { dialect: { migrate: (...args: unknown[]) => unknown }; session: unknown };
  d.dialect.migrate(embeddedMigrations(), d.session, { migrationsFolder: "" });
}
