/**
 * Payouts (extensions.md "Payouts (money out)"): create under an idempotency key, get, list
 * (cursor), cancel while pending, and the sandbox helpers. A create checks, in one unit of work
 * with its idempotency record: the destination is the account's and not removed (else 404), the
 * ledger takes `amount + fee` out of `available` under the account's debit lock (else 400
 * `insufficient_balance`), today's payouts (São Paulo day, not failed or cancelled) stay within
 * `payout_daily_limit` (else 400 `payout_limit_exceeded`); then the payout row (`pending`, due
 * after `payout_delay_seconds`), its events and its `payout.advance` job (jobs.ts). Any refusal
 * rolls the whole unit back: nothing written. A live payout needs a connection that can send Pix
 * (`send`), else 422 `unprocessable_entity`. Amounts in centavos, times epoch ms.
 */
import type { Deps } from "../deps";
import { newId } from "../../lib/ids";
import { endOfSaoPauloDay, saoPauloDate, startOfSaoPauloDay } from "../../lib/calendar";
import type { Uow } from "../../store/port";
import type { PayoutRow } from "../../store/rows";
import type { Claim } from "../idempotency/store";
import { getAccountSettings } from "../accounts/settings";
import { sanitizeMetadata } from "../charges/metadata";
import { debitPayout } from "../ledger";
import { DomainError, notFound } from "../errors";
import type { Scope } from "../scope";
import { toPayoutDestination } from "./destination-views";
import { emitPayoutEvents } from "./events";
import { advanceKey, PAYOUT_ADVANCE_JOB, PAYOUT_PREFIX } from "./model";
import { movePayoutOrThrow } from "./transitions";
import { toPayout, type DestinationSnapshot, type PublicPayout } from "./views";

/** Idempotency scope of POST /v1/payouts. */
export const PAYOUT_SCOPE = "POST /v1/payouts";

/** The body of POST /v1/payouts (types and lengths checked by the route). */
export interface PayoutRequest {
  /** Centavos, >= 1. */
  amount: number;
  destination_id: string;
  /** At most 140 characters (the PSP's `infoPagador`). */
  description?: string;
  metadata?: Record<string, unknown>;
}

/**
 * POST /v1/payouts -> 201 the Payout (`pending`), written with `claim`'s idempotency record (see
 * the module header for the checks and their errors).
 */
export async function createPayout(
  deps: Deps,
  scope: Scope,
  req: PayoutRequest,
  claim: Claim,
): Promise<{ status: 201; body: PublicPayout }> {
  // Which connection sends it is decided now and stored: later steps reach the same one.
  const provider = deps.providers.forMethod(scope, "PIX");
  if (!provider?.send)
    throw new DomainError(
      "unprocessable_entity",
      scope.livemode
        ? "No live Pix provider connection of this account can send Pix (payouts need a connection of type efi)."
        : "The sandbox cannot send Pix.",
    );
  const connectionId = scope.livemode ? (provider.connectionId ?? null) : null;
  const metadata = sanitizeMetadata(req.metadata);
  return deps.store.tx(async (uow) => {
    const row = await acceptPayout(deps, uow, scope, req, connectionId, metadata);
    const body = toPayout(row);
    await deps.idempotency.complete(uow, claim, 201, body);
    return { status: 201 as const, body };
  });
}

/** Inside `uow`: the checks, the debit, the row, its events and its job (module header). */
async function acceptPayout(
  deps: Deps,
  uow: Uow,
  scope: Scope,
  req: PayoutRequest,
  connectionId: string | null,
  metadata: Record<string, unknown>,
): Promise<PayoutRow> {
  const dest = await uow.payoutDestinations.byIdScoped(scope.accountId, req.destination_id);
  if (!dest || dest.deletedAt !== null) throw notFound("payout destination");
  const settings = await getAccountSettings(uow, scope.accountId);
  if (!settings) throw notFound("account");
  const now = deps.clock.nowMs();
  const id = newId("payout");
  const fee = settings.payout_fee_fixed;
  // First: the debit, which takes the account's debit lock; the day's sum below is then exact.
  await debitPayout(deps, uow, {
    accountId: scope.accountId,
    livemode: scope.livemode,
    currency: "BRL",
    amount: req.amount,
    fee,
    payoutId: id,
  });
  const limit = settings.payout_daily_limit;
  if (limit !== null) {
    const day = saoPauloDate(now);
    const used = await uow.payouts.sumActiveCreated(
      scope.accountId,
      scope.livemode,
      startOfSaoPauloDay(day),
      endOfSaoPauloDay(day) + 1,
    );
    if (used + req.amount > limit)
      throw new DomainError(
        "payout_limit_exceeded",
        `This payout would take today's payouts to ${used + req.amount}, above the daily limit of ${limit} (São Paulo day).`,
        { param: "amount" },
      );
  }
  const snapshot: DestinationSnapshot = { view: toPayoutDestination(dest), taxId: dest.taxId, pixKey: dest.pixKey };
  const row: PayoutRow = {
    id,
    accountId: scope.accountId,
    livemode: scope.livemode,
    amount: req.amount,
    fee,
    currency: "BRL",
    status: "pending",
    destinationId: dest.id,
    destination: JSON.stringify(snapshot),
    description: req.description ?? null,
    metadata: JSON.stringify(metadata),
    endToEndId: null,
    failureCode: null,
    failureMessage: null,
    providerConnectionId: connectionId,
    sendId: id.slice(PAYOUT_PREFIX.length),
    sendAttempts: 0,
    sentAt: null,
    dueAt: now + settings.payout_delay_seconds * 1000,
    createdAt: now,
    updatedAt: now,
    processingAt: null,
    paidAt: null,
    failedAt: null,
    cancelledAt: null,
  };
  await uow.payouts.insert(row);
  await emitPayoutEvents(deps, uow, row, null);
  await deps.jobs.enqueue(uow, {
    kind: PAYOUT_ADVANCE_JOB,
    payload: { payoutId: id },
    dueAt: row.dueAt,
    dedupeKey: advanceKey(id),
  });
  return row;
}

/** GET /v1/payouts/{id}: the payout of the caller's account and mode, or 404 `not_found`. */
export async function getPayout(deps: Deps, scope: Scope, id: string): Promise<PublicPayout> {
  const row = await deps.store.read.payouts.byIdScoped(scope.accountId, scope.livemode, id);
  if (!row) throw notFound("payout");
  return toPayout(row);
}

/**
 * POST /v1/payouts/{id}/cancel -> 200 the Payout `cancelled`, `amount + fee` back in
 * `available`. 404 for another account's payout; 400 `invalid_state` unless it is `pending`.
 */
export function cancelPayout(deps: Deps, scope: Scope, id: string): Promise<PublicPayout> {
  return moveScoped(deps, scope, id, (row) => {
    if (row.status !== "pending")
      throw new DomainError("invalid_state", `Only a pending payout can be cancelled; this one is ${row.status}.`);
    return { to: "cancelled" };
  });
}

/**
 * Sandbox helpers (extensions.md `POST /v1/test_helpers/payouts/{id}/pay|fail`): the PSP pays
 * (a 32-character end-to-end id) or refuses (`failure_code`, default `sandbox_failed`) a payout
 * not final yet -> 200 the Payout. 404 for another account's; 400 `invalid_state` when final.
 */
export function settleSandboxPayout(
  deps: Deps,
  scope: Scope,
  id: string,
  outcome: { paid: true; endToEndId: string } | { paid: false; failureCode?: string },
): Promise<PublicPayout> {
  return moveScoped(deps, scope, id, () =>
    outcome.paid
      ? { to: "paid", patch: { endToEndId: outcome.endToEndId } }
      : {
          to: "failed",
          patch: {
            failureCode: outcome.failureCode ?? "sandbox_failed",
            failureMessage: "The payout was failed by the sandbox test helper.",
          },
        },
  );
}

/** Moves the caller's payout `id` as `decide` says, in one unit (movePayoutOrThrow). */
async function moveScoped(
  deps: Deps,
  scope: Scope,
  id: string,
  decide: (row: PayoutRow) => { to: "cancelled" | "paid" | "failed"; patch?: Parameters<typeof movePayoutOrThrow>[4] },
): Promise<PublicPayout> {
  return deps.store.tx(async (uow) => {
    const row = await uow.payouts.byIdScoped(scope.accountId, scope.livemode, id);
    if (!row) throw notFound("payout");
    const { to, patch } = decide(row);
    return toPayout(await movePayoutOrThrow(deps, uow, row, to, patch));
  });
}
