/** Readiness of the SQLite database: it answers and every embedded migration is applied. */
import type { Database } from "bun:sqlite";
import { embeddedMigrations } from "./migrations";

const MIGRATION_COUNT = embeddedMigrations().length;

/** True when `client` answers and records every embedded migration as applied; false when closed or behind. */
export function schemaCurrent(client: Database): boolean {
  try {
    const row = client.query("select count(*) as n from __drizzle_migrations").get() as { n: number } | null;
    return (row?.n ?? 0) >= MIGRATION_COUNT;
  } catch {
    return false;
  }
}
