// sqlite-only: replays the SQLite migrations 0006-0008 on a database an older release left (PostgreSQL's migrations
// start after them)
/** Migrations 0006-0008 (issue 15 phase 2): audit rows written before them keep their meaning in the new columns. */
import { describe, expect, test } from "bun:test";
import { openDb, type Db } from "../../src/store/sqlite/client";
import { embeddedMigrations, runMigrations } from "../../src/store/sqlite/migrations";
import { listAuditEntries } from "../support/audit";

/** Applies only the first `n` embedded migrations (a database as an older release left it). */
function migrateFirst(db: Db, n: number): void {
  const d = db as unknown as { dialect: { migrate: (...args: unknown[]) => unknown }; session: unknown };
  d.dialect.migrate(embeddedMigrations().slice(0, n), d.session, { migrationsFolder: "" });
}

describe("audit log migration", () => {
  test("moves an old dashboard.request row's method and path to target and its status to status, and names a key row's key as target", () => {
    const db = openDb(":memory:");
    const before = embeddedMigrations().findIndex((m) => m.sql.join("").includes("ADD `target`"));
    expect(before).toBe(6);
    migrateFirst(db, before);
    const insert = db.$client.prepare(
      "insert into audit_log (id, account_id, actor_user_id, action, key_id, key_fingerprint, previous_key_id, previous_key_fingerprint, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    insert.run("aud_1", "acc_1", "usr_1", "dashboard.request", "POST /v1/payments/p1/refund", "201", null, null, 1000);
    insert.run("aud_2", "acc_1", "usr_1", "api_key.rotated", "ak_new", "fp_new", "ak_old", "fp_old", 2000);
    runMigrations(db);
    const rows = listAuditEntries(db, "acc_1").map(
      ({ id, action, target, status, detail, keyId, keyFingerprint, previousKeyId, previousKeyFingerprint }) => ({
        id,
        action,
        target,
        status,
        detail,
        keyId,
        keyFingerprint,
        previousKeyId,
        previousKeyFingerprint,
      }),
    );
    expect(rows).toEqual([
      {
        id: "aud_1",
        action: "dashboard.request",
        target: "POST /v1/payments/p1/refund",
        status: 201,
        detail: null,
        keyId: null,
        keyFingerprint: null,
        previousKeyId: null,
        previousKeyFingerprint: null,
      },
      {
        id: "aud_2",
        action: "api_key.rotated",
        target: "ak_new",
        status: null,
        detail: null,
        keyId: "ak_new",
        keyFingerprint: "fp_new",
        previousKeyId: "ak_old",
        previousKeyFingerprint: "fp_old",
      },
    ]);
    db.$client.close();
  });
});
