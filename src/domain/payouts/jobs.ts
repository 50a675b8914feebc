/**
 * Durable progress of payouts: job `payout.advance` (payload `{payoutId}`, dedupe key
 * `payout.advance:<id>`, queued with the payout at its `due_at`) drives the payout with the
 * provider that sends it (extensions.md "Payouts (money out)", "Pix send through a PSP"). Each run
 * reads the payout, records in a short unit of work what it is about to do, calls the provider
 * OUTSIDE any unit, then records the outcome in another (the webhook worker's discipline):
 * - `pending` and due: -> `processing` with `send_attempts` = 1 in one unit (the send intent;
 *   `processing_at` is the `requestedAt` of every call), then the first send.
 * - a send: `send_attempts` + 1 is committed BEFORE `provider.send`, which gets `resumed` = true on
 *   every attempt after the first (the provider asks by `sendId` first and sends only when it is
 *   absent: one send per payout whatever times out or crashes). Accepted -> `sent_at` set.
 *   "Committed" means durable: a unit may return before it is (src/store/port.ts `durable()`),
 *   so the run waits until it is (`store.durable()`) before the call; a crash can then undo
 *   nothing the PSP heard of (a crash before that point leaves the payout `pending` or the
 *   attempt unrecorded, and the PSP never saw that attempt).
 * Latency (docs/performance.md "Payouts"): a payout due at once is enqueued due now, and the
 * scheduler wakes for it on the next event-loop turn after the create commits (not a 1 ms timer).
 * - sent: `provider.sendStatus`, again at its `checkAt` or with backoff (2 s doubling from
 *   `requestedAt`, at most 10 min) until final; `absent` (it never reached the PSP) -> a send.
 * - `paid` -> paid with its `end_to_end_id`; `rejected` -> failed with `failure_code` /
 *   `failure_message`, `amount + fee` back in `available` (transitions.ts); retryable and auth
 *   failures (logged at warn) run again later.
 * The provider: live payouts the connection stored on them (`forConnection`, deleted or replaced
 * ones included), test payouts the sandbox (src/providers/sandbox/send.ts: paid 10 s after
 * `requestedAt` on the injected clock).
 */
import type { Deps } from "../deps";
import type { JobOutcome } from "../jobs";
import type { PaymentProvider, SendDestination, SendOutcome, SendRequest } from "../providers/types";
import type { Uow } from "../../store/port";
import type { PayoutRow } from "../../store/rows";
import { advanceKey, isFinal, PAYOUT_ADVANCE_JOB, type PayoutStatus } from "./model";
import { movePayout } from "./transitions";
import type { DestinationSnapshot } from "./views";

/** A call that failed without an answer, or a payout whose provider is missing, is tried again this much later, ms. */
const RETRY_MS = 30_000;
/** Status queries of a send in flight: first 2 s after it was recorded, doubling, at most 10 min apart. */
const POLL_MIN_MS = 2_000;
const POLL_MAX_MS = 600_000;

/** The provider that sends `row`, or undefined (a live payout whose connection is gone). */
function providerOf(deps: Deps, row: PayoutRow): PaymentProvider | undefined {
  if (row.providerConnectionId) return deps.providers.forConnection(row.providerConnectionId);
  return deps.providers.forMethod(row, "PIX");
}

/** The seam's destination of the snapshot kept on the payout. */
function sendDestination(row: PayoutRow): SendDestination {
  const snap = JSON.parse(row.destination) as DestinationSnapshot;
  const v = snap.view;
  if (v.type === "bank_account")
    return {
      type: "bank_account",
      name: v.name,
      taxId: snap.taxId ?? "",
      ispb: v.ispb,
      branch: v.branch,
      account: v.account,
      accountType: v.account_type,
    };
  const keyIsDocument = v.pix_key_type === "cpf" || v.pix_key_type === "cnpj";
  return {
    type: "pix_key",
    pixKey: snap.pixKey ?? "",
    pixKeyType: v.pix_key_type,
    taxId: snap.taxId ?? (keyIsDocument ? snap.pixKey : null),
    name: v.name,
  };
}

/** The request of `row`'s send (`resumed` as the caller knows it). */
function sendRequest(row: PayoutRow, resumed: boolean): SendRequest {
  return {
    sendId: row.sendId,
    amount: row.amount,
    destination: sendDestination(row),
    description: row.description,
    resumed,
    requestedAt: row.processingAt ?? row.createdAt,
  };
}

/** When to ask again about a send in flight: its `checkAt`, else backoff from `requestedAt`. */
function nextPoll(deps: Deps, row: PayoutRow, checkAt?: number): number {
  const now = deps.clock.nowMs();
  if (checkAt !== undefined) return Math.max(checkAt, now);
  const age = now - (row.processingAt ?? now);
  return now + Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, age));
}

/** One step of payout `payoutId` with its provider (see the module header). */
export async function advancePayout(deps: Deps, payoutId: string): Promise<JobOutcome> {
  let row = await deps.store.read.payouts.byId(payoutId);
  if (!row || isFinal(row.status as PayoutStatus)) return;
  const now = deps.clock.nowMs();
  if (row.status === "pending" && row.dueAt > now) return { retryAt: row.dueAt };
  const provider = providerOf(deps, row);
  if (!provider?.send || !provider.sendStatus) {
    deps.logger.warn(
      { payoutId, connectionId: row.providerConnectionId },
      "payout: no provider can send it now; retrying later",
    );
    return { retryAt: now + RETRY_MS };
  }
  let outcome: SendOutcome;
  if (row.status === "pending") {
    // One unit records both the move and the first attempt, on disk before the call.
    const pending = row;
    row = await deps.store.tx((uow) => movePayout(deps, uow, pending, "processing", { sendAttempts: 1 }));
    if (!row) return; // cancelled (or moved by a helper) meanwhile
    await durable(deps);
    outcome = await provider.send(deps.providers.ctx, sendRequest(row, false));
  } else if (row.sentAt === null) outcome = await send(deps, provider, row);
  else {
    outcome = await provider.sendStatus(deps.providers.ctx, sendRequest(row, true));
    if (outcome.status === "absent") outcome = await send(deps, provider, row);
  }
  return record(deps, payoutId, outcome);
}

/**
 * Commits the attempt (on disk), then sends (resumed after the first attempt). An attempt that cannot be recorded
 * (moved meanwhile) sends nothing.
 */
async function send(deps: Deps, provider: PaymentProvider, row: PayoutRow): Promise<SendOutcome> {
  const attempt = await deps.store.tx((uow) =>
    uow.payouts.moveFrom(row.id, "processing", {
      sendAttempts: row.sendAttempts + 1,
      sentAt: null,
      updatedAt: deps.clock.nowMs(),
    }),
  );
  if (!attempt) return { status: "retryable", code: "payout_moved", message: "The payout moved meanwhile." };
  await durable(deps);
  return provider.send!(deps.providers.ctx, sendRequest(attempt, attempt.sendAttempts > 1));
}

/**
 * Resolves once every unit written so far is durable (`store.durable()`; at once when all already
 * are), as live charge creation waits for its intent (src/domain/charges/create.ts).
 */
async function durable(deps: Deps): Promise<void> {
  const pending = deps.store.durable();
  if (pending) await pending;
}

/** Records `o` in a short unit (the payout as it stands now decides) and says when to run again. */
async function record(deps: Deps, payoutId: string, o: SendOutcome): Promise<JobOutcome> {
  if (o.status !== "paid" && o.status !== "rejected" && o.status !== "processing") {
    if (o.status !== "absent" && o.code !== "payout_moved")
      deps.logger.warn(
        { payoutId, status: o.status, code: o.code, reason: o.message },
        "payout: the provider did not answer the send; retrying later",
      );
    return { retryAt: (o.status === "retryable" && o.retryAt) || deps.clock.nowMs() + RETRY_MS };
  }
  return deps.store.tx(async (uow) => {
    const row = await uow.payouts.byId(payoutId);
    if (row?.status !== "processing") return;
    if (o.status === "paid") {
      await movePayout(deps, uow, row, "paid", { endToEndId: row.endToEndId ?? o.endToEndId });
      return;
    }
    if (o.status === "rejected") {
      await movePayout(deps, uow, row, "failed", { failureCode: o.code, failureMessage: o.message.slice(0, 500) });
      return;
    }
    // processing: accepted by the PSP; only status queries from now on.
    const p = o as Extract<SendOutcome, { status: "processing" }>;
    const now = deps.clock.nowMs();
    const kept = await uow.payouts.moveFrom(row.id, "processing", {
      sentAt: row.sentAt ?? now,
      endToEndId: row.endToEndId ?? p.endToEndId ?? null,
      updatedAt: now,
    });
    return { retryAt: nextPoll(deps, kept ?? row, p.checkAt) };
  });
}

/**
 * Inside `uow`: a provider notification (`SendHints.sendIds`, e.g. Efí callback entries with
 * `gnExtras.idEnvio`) says these sends moved: each matching payout in flight gets its job run now,
 * which confirms with `sendStatus` (never from the notification's body). Ids of no payout (a
 * cashout refund's, a forged one), of a payout outside `scope` (the account and mode whose
 * connection was called back, when given) or not yet sent are ignored. Returns how many payouts
 * were asked. `now`: epoch ms.
 */
export async function hintSends(
  deps: Deps,
  uow: Uow,
  sendIds: readonly string[],
  now: number,
  scope?: { accountId: string; livemode: boolean },
): Promise<number> {
  let asked = 0;
  for (const sendId of new Set(sendIds)) {
    const row = await uow.payouts.bySendId(sendId);
    if (!row || isFinal(row.status as PayoutStatus) || row.status === "pending") continue;
    if (scope && (row.accountId !== scope.accountId || row.livemode !== scope.livemode)) continue;
    await deps.jobs.enqueueNoLaterThan(uow, {
      kind: PAYOUT_ADVANCE_JOB,
      payload: { payoutId: row.id },
      dueAt: now,
      dedupeKey: advanceKey(row.id),
    });
    asked++;
  }
  return asked;
}

/** Registers `payout.advance` (called from src/jobs/registry.ts). */
export function registerPayoutJobs(deps: Deps): void {
  deps.jobs.register(PAYOUT_ADVANCE_JOB, (job) => advancePayout(deps, (job.payload as { payoutId: string }).payoutId));
}
