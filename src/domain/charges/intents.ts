/**
 * Durable create intents of live PSP charges (issue 14 §3: "persist the txid with the idempotency
 * record before calling the PSP (outside any transaction), finalise after"; extensions.md "Live
 * Pix" Create: a retry with the same key reuses the same txid, so no second cob is ever created).
 * One row of `create_intents` per idempotency record (account, livemode, scope, key) whose create
 * goes through a provider with `reserve` (bcb_pix_v2). The sandbox has no `reserve`: its creates
 * write nothing here and keep their one-transaction hot path.
 *
 * State machine of an intent:
 *   (none)  --createTransaction, own short tx BEFORE `PUT /cob/{txid}`-->  OPEN
 *           (txid, transaction id, the row as it will be inserted, connection, created_at)
 *   OPEN    --PSP created the cob (pending) or refused it (rejected: charge `failed`)-->  DONE:
 *           charge inserted with its events and first poll, idempotency record completed and
 *           the intent deleted, all in one transaction
 *   OPEN    --PSP timeout / 5xx / unreachable / credentials refused-->  OPEN (caller gets 503)
 *   OPEN    --not_supported / invalid (caller gets 422)-->  deleted, nothing created
 *   OPEN    --retry with the same key and body-->  resumed: same txid and transaction id;
 *           `GET /cob/{txid}` first (found -> DONE with it, no second PUT; 404 -> PUT)
 *           (same key, different body -> 409 `idempotency_key_reused`, intent untouched)
 *   OPEN, older than RECOVERY_GRACE_MS  --recovery job (intent-recovery.ts), GET only-->
 *           ATIVA or CONCLUIDA -> DONE as the first request would have (CONCLUIDA then pays
 *           through the first status check, due at once); REMOVIDA -> DONE `failed`;
 *           404 -> deleted; PSP unreachable -> OPEN (next run)
 * DONE is the absence of the row; whoever deletes it in its commit transaction finalises.
 */
import type { Deps } from "../../deps";
import { tx, type Db, type DbOrTx } from "../../db/client";
import { createIntents } from "../../../db/schema";
import { and, asc, eq, lte } from "drizzle-orm";
import { rawId } from "../../lib/ids";
import type { Reservation, TransactionRow } from "../../providers/types";
import type { ClaimRecord } from "../idempotency/store";
import { toTransactionCreate } from "../payments/views";
import { toPublicCharge } from "./views";

/** How the idempotent response of the create is rendered: the public Charge or the payments create shape. */
export type IntentView = "charge" | "transaction";

/** An open intent, as stored. */
export interface OpenIntent {
  id: string;
  record: ClaimRecord;
  txid: string;
  connectionId: string;
  /** The transaction row as it will be inserted (before the provider's columns). */
  row: TransactionRow;
  view: IntentView;
  /** Epoch ms. */
  createdAt: number;
}

/** The response body the create's idempotency record stores for `view`. */
export function renderIntentView(deps: Pick<Deps, "config">, view: IntentView, row: TransactionRow): unknown {
  return view === "transaction" ? toTransactionCreate(row) : toPublicCharge(row, deps.config);
}

type IntentRow = typeof createIntents.$inferSelect;

function toOpen(r: IntentRow): OpenIntent {
  return {
    id: r.id,
    record: { accountId: r.accountId, livemode: r.livemode, scope: r.scope, key: r.key, requestHash: r.requestHash, createdAt: r.createdAt },
    txid: r.txid,
    connectionId: r.connectionId,
    row: JSON.parse(r.row) as TransactionRow,
    view: r.view === "transaction" ? "transaction" : "charge",
    createdAt: r.createdAt,
  };
}

/** The open intent of an idempotency record's key (its hash may differ: the caller compares), or undefined. */
export function findIntent(db: DbOrTx, rec: Pick<ClaimRecord, "accountId" | "livemode" | "scope" | "key">): OpenIntent | undefined {
  const r = db
    .select()
    .from(createIntents)
    .where(and(eq(createIntents.accountId, rec.accountId), eq(createIntents.livemode, rec.livemode), eq(createIntents.scope, rec.scope), eq(createIntents.key, rec.key)))
    .get();
  return r ? toOpen(r) : undefined;
}

/** Open intents created at or before `beforeMs` (epoch ms), oldest first, at most `limit`. */
export function listStaleIntents(db: Db, beforeMs: number, limit: number): OpenIntent[] {
  return db.select().from(createIntents).where(lte(createIntents.createdAt, beforeMs)).orderBy(asc(createIntents.createdAt)).limit(limit).all().map(toOpen);
}

/** Whether any intent is open (one indexed read; checked once at startup). */
export function hasOpenIntents(db: Db): boolean {
  return db.select({ id: createIntents.id }).from(createIntents).limit(1).get() !== undefined;
}

/**
 * Writes the intent in a transaction of its own (it must be durable before the PSP is called);
 * `row` is the transaction as it will be inserted. Returns the intent.
 */
export function openIntent(deps: Pick<Deps, "db" | "clock">, record: ClaimRecord, reservation: Omit<Reservation, "resumed">, row: TransactionRow, view: IntentView): OpenIntent {
  const intent: OpenIntent = { id: rawId(), record, txid: reservation.txid, connectionId: reservation.connectionId, row, view, createdAt: deps.clock.nowMs() };
  tx(deps.db, (t) => {
    t.insert(createIntents)
      .values({
        id: intent.id,
        accountId: record.accountId,
        livemode: record.livemode,
        scope: record.scope,
        key: record.key,
        requestHash: record.requestHash,
        txid: intent.txid,
        transactionId: row.id,
        connectionId: intent.connectionId,
        row: JSON.stringify(row),
        view,
        createdAt: intent.createdAt,
      })
      .run();
  });
  return intent;
}

/** Deletes intent `id` with `t`; true when this call deleted it (false: another path finalised or dropped it). */
export function dropIntent(t: DbOrTx, id: string): boolean {
  return t.delete(createIntents).where(eq(createIntents.id, id)).returning({ id: createIntents.id }).all().length === 1;
}
