/**
 * Hints about Pix an account SENT (extensions.md "Pix send through a PSP: connection type `efi`":
 * callback entries with `gnExtras.idEnvio`, parsed by the provider into `sendIds`): in one unit of
 * work, each cashout refund named gets its status checked now (hintRefundSends) and each payout
 * named likewise (src/domain/payouts/jobs.ts hintSends). Only hints: the provider's GET by
 * idEnvio decides. No network here.
 */
import type { Deps } from "../deps";
import { hintRefundSends } from "../refunds/jobs";
import { hintSends } from "../payouts/jobs";

/** Most send ids taken from one notification (the rest are caught by the polls of sends in flight). */
export const MAX_SEND_HINTS = 100;

/** Queues the status checks of the sends `sendIds` of (account, mode); returns how many were asked. */
export async function acceptSendHints(
  deps: Deps,
  scope: { accountId: string; livemode: boolean },
  sendIds: readonly string[],
): Promise<number> {
  const ids = [...new Set(sendIds)].slice(0, MAX_SEND_HINTS);
  if (ids.length === 0) return 0;
  return deps.store.tx(async (uow) => {
    const now = deps.clock.nowMs();
    return (await hintRefundSends(deps, uow, scope, ids, now)) + (await hintSends(deps, uow, ids, now, scope));
  });
}
