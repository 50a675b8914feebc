/**
 * Provider notifications (a PSP's callback, extensions.md "Live Pix": `{pix: [...]}`): the
 * provider parses the body; a status it vouches for (the in-process sandbox) is recorded at
 * once, anything else is only a hint, confirmed by a durable status check (`queryStatus`, outside
 * any transaction) before any state changes. Answering needs no network: callers reply 200 at once.
 */
import type { Deps } from "../../deps";
import { DomainError } from "../errors";
import type { NotificationItem, PaymentProvider } from "../../providers/types";
import type { PaymentMethod } from "./model";
import { hintRefunds } from "../payments/refund-jobs";
import { hintPixReturn } from "./pix-returns";
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
  if (result.unknown > 0) deps.logger.warn({ accountId: scope.accountId, unknown: result.unknown }, "provider notification names unknown transactions");
  return result;
}

/**
 * Takes notification items (a parsed callback, or the payments a provider listed) for the
 * transactions of (account, mode), in one unit of work: a trusted outcome is recorded, a hint
 * queues a status check now (memo `{endToEndId}` when named) for a transaction still waiting,
 * or for a live one already over when it names a Pix not yet returned (outcomes.ts needsCheck);
 * other transactions (already paid...) need nothing. Refunds or returns the item names
 * (`refundIds`, a Pix's `devolucoes`) get their status checked now (hintRefunds). Items naming no
 * transaction of the scope are counted as unknown.
 */
export async function acceptNotificationItems(
  deps: Deps,
  scope: { accountId: string; livemode: boolean },
  method: PaymentMethod,
  items: NotificationItem[],
): Promise<NotificationResult> {
  const empty = (): NotificationResult => ({ accepted: 0, unknown: 0 });
  if (items.length === 0) return empty();
  // Counted afresh by each run of the unit (a unit may be retried from the start).
  return deps.store.tx(async (uow) => {
    const result = empty();
    const now = deps.clock.nowMs();
    for (const item of items) {
      const row = item.ref.transactionId ? await uow.charges.byId(item.ref.transactionId) : item.ref.txid ? await uow.charges.byTxid(item.ref.txid) : undefined;
      if (!row || row.accountId !== scope.accountId || row.livemode !== scope.livemode) {
        result.unknown++;
        continue;
      }
      result.accepted++;
      if (item.outcome) await recordPaymentOutcomeIn(deps, uow, row, method, item.outcome);
      else if (needsCheck(row, item.ref.endToEndId))
        await scheduleStatusCheck(deps, uow, row.id, method, now, item.ref.endToEndId ? { endToEndId: item.ref.endToEndId } : undefined, !CHECKABLE.has(row.status));
      if (item.refundIds?.length) {
        await hintRefunds(deps, uow, row, item.refundIds, now);
        await hintPixReturn(deps, uow, row, item.refundIds, now);
      }
    }
    return result;
  });
}
