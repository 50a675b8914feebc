/**
 * Provider notifications (a PSP's callback, extensions.md "Live Pix": `{pix: [...]}`): the
 * provider parses the body; a status it vouches for (the in-process sandbox) is recorded at
 * once, anything else is only a hint, confirmed by a durable status check (`queryStatus`, outside
 * any transaction) before any state changes. Answering needs no network: callers reply 200 at once.
 */
import type { Deps } from "../deps";
import { DomainError } from "../errors";
import type { NotificationItem, PaymentProvider } from "../providers/types";
import type { PaymentMethod } from "./model";
import type { Uow } from "../../store/port";
import { hintRefunds } from "../refunds/jobs";
import { hintPixReturn } from "./pix-returns";
import { acceptSendHints } from "../pix-provider/send-hints";
import { CHECKABLE, needsCheck, recordPaymentOutcomeIn, scheduleStatusCheck } from "./outcomes";

export interface NotificationResult {
  /** Items recorded or queued for confirmation. */
  accepted: number;
  /** Items naming no transaction of the scope (ignored). */
  unknown: number;
}

/**
 * Takes notification `body` from `provider` for the transactions of (account, mode) and `method`.
 * Throws 400 `invalid_request` when the provider cannot read it (nothing changes).
 */
export async function acceptNotification(
  deps: Deps,
  scope: { accountId: string; livemode: boolean },
  provider: PaymentProvider,
  method: PaymentMethod,
  body: unknown,
): Promise<NotificationResult> {
  const parsed = provider.parseNotification(deps.providers.ctx, { body });
  if (parsed.status !== "parsed") throw new DomainError("invalid_request", parsed.message);
  const result = await acceptNotificationItems(deps, scope, method, parsed.items);
  // Pix the account sent (payouts, cashout refunds): hints for their own status checks.
  if (parsed.sendIds?.length) await acceptSendHints(deps, scope, parsed.sendIds);
  if (result.unknown > 0)
    deps.logger.warn(
      { accountId: scope.accountId, unknown: result.unknown },
      "provider notification names unknown transactions",
    );
  return result;
}

/**
 * Takes notification items (a parsed callback, or the payments a provider listed) for the
 * transactions of (account, mode), in one unit of work: a trusted outcome is recorded, a hint
 * queues a status check now (memo `{endToEndId}` when named) for a transaction still waiting,
 * or for a live one already over when it names a Pix not yet returned (outcomes.ts needsCheck);
 * other transactions (already paid...) need nothing. Refunds or returns the item names
 * (`refundIds`, a Pix's `devolucoes`) get their status checked now (hintRefunds). Items naming no
 * transaction of the scope are counted as unknown. Hints pull one check to now at most once a
 * second (HINT_CHECK_INTERVAL_MS).
 * Cost (issue 30 §1): every txid of the batch is matched by ONE indexed read (`byTxids`) before
 * any unit of work, so items naming nothing (a forged callback) are dismissed without taking the
 * write lock; confirmations are deduplicated jobs (one per charge), never run here.
 */
export async function acceptNotificationItems(
  deps: Deps,
  scope: { accountId: string; livemode: boolean },
  method: PaymentMethod,
  items: NotificationItem[],
): Promise<NotificationResult> {
  if (items.length === 0) return { accepted: 0, unknown: 0 };
  const known = new Set(
    (await deps.store.read.charges.byTxids(scope.accountId, scope.livemode, txidsOf(items))).map((r) => r.pixTxid),
  );
  const relevant = items.filter((i) => !!i.ref.transactionId || (!!i.ref.txid && known.has(i.ref.txid)));
  const unknown = items.length - relevant.length;
  if (relevant.length === 0) return { accepted: 0, unknown };
  // Counted afresh by each run of the unit (a unit may be retried from the start).
  return deps.store.tx(async (uow) => {
    const result: NotificationResult = { accepted: 0, unknown };
    const now = deps.clock.nowMs();
    const byTxid = new Map(
      (await uow.charges.byTxids(scope.accountId, scope.livemode, txidsOf(relevant))).map((r) => [r.pixTxid, r]),
    );
    const seen = new Set<string>();
    for (const item of relevant) {
      let row = item.ref.transactionId ? await uow.charges.byId(item.ref.transactionId) : byTxid.get(item.ref.txid!);
      // A charge named twice in one batch is read again: the first item may have changed it.
      if (row && seen.has(row.id)) row = await uow.charges.byId(row.id);
      if (!row || row.accountId !== scope.accountId || row.livemode !== scope.livemode) {
        result.unknown++;
        continue;
      }
      seen.add(row.id);
      result.accepted++;
      if (item.outcome) await recordPaymentOutcomeIn(deps, uow, row, method, item.outcome);
      else if (needsCheck(row, item.ref.endToEndId)) {
        // A charge already over checks each named Pix on its own (outcomes.ts scheduleStatusCheck `perPix`).
        const perPix = !CHECKABLE.has(row.status);
        const at = hintedCheckAt(deps, uow, perPix ? `${row.id}:${item.ref.endToEndId}` : row.id, now);
        await scheduleStatusCheck(
          deps,
          uow,
          row.id,
          method,
          at,
          item.ref.endToEndId ? { endToEndId: item.ref.endToEndId } : undefined,
          perPix,
        );
      }
      if (item.refundIds?.length) {
        await hintRefunds(deps, uow, row, item.refundIds, now);
        await hintPixReturn(deps, uow, row, item.refundIds, now);
      }
    }
    return result;
  });
}

/**
 * Hints pull a charge's status check to now at most once per HINT_CHECK_INTERVAL_MS (issue 30
 * §1): the txids of open charges are public (BR Codes), so without this a stream of callbacks
 * naming them would make one PSP query per callback. A hint within the interval asks for the check
 * at the interval's end instead (one deduplicated job). In-process, per instance; at most
 * HINTED_MAX charges remembered.
 */
export const HINT_CHECK_INTERVAL_MS = 1000;
const HINTED_MAX = 10_000;
const lastHinted = new WeakMap<Deps, Map<string, number>>();

/** When a hint at `now` (epoch ms) asks for the status check `key` (a transaction id, or id:endToEndId) (see HINT_CHECK_INTERVAL_MS). */
function hintedCheckAt(deps: Deps, uow: Uow, key: string, now: number): number {
  let seen = lastHinted.get(deps);
  if (!seen) lastHinted.set(deps, (seen = new Map()));
  const prev = seen.get(key);
  if (prev !== undefined && now < prev + HINT_CHECK_INTERVAL_MS) return prev + HINT_CHECK_INTERVAL_MS;
  // Remembered once the unit commits (a unit retried from the start asks for now again).
  uow.afterCommit(() => {
    if (seen.size >= HINTED_MAX) seen.clear();
    seen.set(key, now);
  });
  return now;
}

/** The distinct txids of `items` that name no transaction id (those are matched by txid). */
function txidsOf(items: NotificationItem[]): string[] {
  return [...new Set(items.flatMap((i) => (!i.ref.transactionId && i.ref.txid ? [i.ref.txid] : [])))];
}
