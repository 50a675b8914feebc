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
import type { Deps } from "../deps";
import { rawId } from "../../lib/ids";
import type { Reservation, TransactionRow } from "../providers/types";
import type { ClaimRecord } from "../idempotency/store";
import type { ChargesRepo } from "../../store/port/charges";
import type { Uow } from "../../store/port";
import type { CreateIntentRow } from "../../store/rows";
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

function toOpen(r: CreateIntentRow): OpenIntent {
  return {
    id: r.id,
    record: {
      accountId: r.accountId,
      livemode: r.livemode,
      scope: r.scope,
      key: r.key,
      requestHash: r.requestHash,
      createdAt: r.createdAt,
    },
    txid: r.txid,
    connectionId: r.connectionId,
    row: JSON.parse(r.row) as TransactionRow,
    view: r.view === "transaction" ? "transaction" : "charge",
    createdAt: r.createdAt,
  };
}

/**
 * The open intent of an idempotency record's key (its hash may differ: the caller compares), or
 * undefined. `charges`: `deps.store.read.charges`, or `uow.charges` inside a unit.
 */
export async function findIntent(
  charges: ChargesRepo,
  rec: Pick<ClaimRecord, "accountId" | "livemode" | "scope" | "key">,
): Promise<OpenIntent | undefined> {
  const r = await charges.intentOf(rec);
  return r ? toOpen(r) : undefined;
}

/** Open intents created at or before `beforeMs` (epoch ms), oldest first, at most `limit`. */
export async function listStaleIntents(
  deps: Pick<Deps, "store">,
  beforeMs: number,
  limit: number,
): Promise<OpenIntent[]> {
  return (await deps.store.read.charges.staleIntents(beforeMs, limit)).map(toOpen);
}

/** Whether any intent is open (one indexed read; checked once at startup). */
export function hasOpenIntents(deps: Pick<Deps, "store">): Promise<boolean> {
  return deps.store.read.charges.hasOpenIntents();
}

/**
 * Writes the intent in a unit of work of its own (it must be durable before the PSP is called);
 * `row` is the transaction as it will be inserted. Returns the intent.
 */
export async function openIntent(
  deps: Pick<Deps, "store" | "clock">,
  record: ClaimRecord,
  reservation: Omit<Reservation, "resumed">,
  row: TransactionRow,
  view: IntentView,
): Promise<OpenIntent> {
  const intent: OpenIntent = {
    id: rawId(),
    record,
    txid: reservation.txid,
    connectionId: reservation.connectionId,
    row,
    view,
    createdAt: deps.clock.nowMs(),
  };
  await deps.store.tx((uow) =>
    uow.charges.openIntent({
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
    }),
  );
  return intent;
}

/** Deletes intent `id` inside `uow`; true when this call deleted it (false: another path finalised or dropped it). */
export function dropIntent(uow: Uow, id: string): Promise<boolean> {
  return uow.charges.dropIntent(id);
}
