/**
 * Reconciliation with the PSP (issue 27 §2; extensions.md "Statement, exports and
 * reconciliation"): a São Paulo day of an account's live connection, as the PSP lists it
 * (received Pix `GET /pix?inicio&fim`, and through `efi` sent Pix `GET /v2/gn/pix/enviados`),
 * against what Cofre holds (charges and their returned Pix, payouts, cashout refunds), matched on
 * end-to-end id (received) and send id (`idEnvio`, sent).
 *
 * Differences:
 *   missing_in_cofre  a Pix received or sent at the PSP that Cofre has no record of; a received Pix
 *                     on one of our cobs is handed to the normal confirmation path (a status check
 *                     job that ends in applySettlementNotice), `healed: true`; an infraction of the
 *                     day that names an unknown end-to-end id is listed here too (reference_id = its
 *                     `idInfracao`, live MED, ./infractions.ts)
 *   missing_at_psp    a charge paid (or a payout or cashout sent) in Cofre that the PSP does not list
 *   amount_differs    both know it, with other amounts
 *   status_differs    a send both know whose outcome differs (paid / failed / processing)
 * and the same four for the devoluções (refunds and returns of a Pix) the PSP lists under each
 * received Pix Cofre knows, against its devolution refunds and the returns recorded on the charge.
 * Totals count what each side holds as money moved: received Pix, and sends paid (REALIZADO, a
 * `paid` payout, a REFUNDED cashout). Every computed day is stored (one row per account and day);
 * the morning job (./jobs.ts) computes the previous day for every live connection.
 */
import type { Deps } from "../deps";
import { endOfSaoPauloDay, saoPauloDate, startOfSaoPauloDay, addDays } from "../../lib/calendar";
import { iso } from "../../lib/clock";
import type { ReceivedPix, SentPix } from "../providers/types";
import type { PayoutRow, RefundRow, TransactionRow } from "../../store/rows";
import { DomainError, invalidParam } from "../errors";
import type { Scope } from "../scope";
import { acceptNotificationItems } from "../charges/notifications";
import { pixReturnOf, pixReturnsOf } from "../charges/pix-returns";
import type { PublicDifference, PublicReconciliation } from "./views";

/** Days `GET /v1/reconciliation` lists (today and the 29 before it). */
export const LIST_DAYS = 30;

type Totals = { count: number; amount: number };
type SendState = SentPix["status"];

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` that is a real calendar date, or null. */
export function parseDay(v: string): string | null {
  if (!DATE_RE.test(v)) return null;
  const d = new Date(`${v}T00:00:00Z`);
  return Number.isFinite(d.getTime()) && d.toISOString().slice(0, 10) === v ? v : null;
}

function assertLive(scope: Scope): void {
  if (!scope.livemode)
    throw new DomainError(
      "live_mode_only",
      "Reconciliation compares the live PSP's records: use a live key (or the dashboard in live mode).",
    );
}

/** Where a payout stands, in SentPix terms (null: never handed to the PSP). */
function payoutState(p: PayoutRow): SendState | null {
  if (p.status === "paid") return "paid";
  if (p.sentAt === null) return null;
  if (p.status === "failed" || p.status === "cancelled") return "failed";
  return "processing";
}

/** Where a cashout refund stands, in SentPix terms (null: not handed to the PSP yet). */
function refundState(r: RefundRow): SendState | null {
  if (r.status === "REFUNDED") return "paid";
  if (r.status === "FAILED") return "failed";
  if (r.status === "IN_PROGRESS") return "processing";
  return null;
}

interface CofreSend {
  referenceId: string;
  amount: number;
  state: SendState;
  endToEndId: string | null;
}

const add = (t: Totals, amount: number) => {
  t.count++;
  t.amount += amount;
};

/**
 * Reconciles `date` (`YYYY-MM-DD`, São Paulo) of the scope's account with its live connection's
 * PSP, stores the result and returns it. Throws 403 `live_mode_only` (test scope), 400
 * `invalid_request` on `date` (malformed or in the future), 422 `unprocessable_entity` (no live
 * connection that lists payments), 503 `service_unavailable` (the PSP did not answer the lists).
 */
export async function reconcileDay(deps: Deps, scope: Scope, date: string): Promise<PublicReconciliation> {
  assertLive(scope);
  const day = parseDay(date);
  if (!day) throw invalidParam("date", "date must be a calendar date YYYY-MM-DD.");
  const now = deps.clock.nowMs();
  if (day > saoPauloDate(now)) throw invalidParam("date", "date must not be in the future (São Paulo time).");
  return reconcileAccountDay(deps, scope.accountId, day);
}

/** The work of reconcileDay for an account (the morning job calls it directly). */
export async function reconcileAccountDay(deps: Deps, accountId: string, day: string): Promise<PublicReconciliation> {
  const conn = await deps.store.read.pixProvider.activeByAccount(accountId);
  const provider = conn ? deps.providers.forConnection(conn.id) : undefined;
  if (!conn || !provider?.listPayments)
    throw new DomainError("unprocessable_entity", "The account has no live Pix provider connection to reconcile with.");
  const from = startOfSaoPauloDay(day);
  const to = endOfSaoPauloDay(day);
  const ctx = deps.providers.ctx;
  const listed = await provider.listPayments(ctx, { from, to });
  if (listed.status !== "listed") throw pspDown(listed.message);
  const sent = provider.listSends ? await provider.listSends(ctx, { from, to }) : null;
  if (sent && sent.status !== "listed") throw pspDown(sent.message);
  const received = listed.received ?? [];
  const sends = sent?.status === "listed" ? sent.sends : [];

  const differences: PublicDifference[] = [];
  const psp = { received: { count: 0, amount: 0 }, sent: { count: 0, amount: 0 } };
  const cofre = { received: { count: 0, amount: 0 }, sent: { count: 0, amount: 0 } };

  // Received: every PSP Pix against the charges (and returned Pix) that name it.
  const reads = deps.store.read.reconciliation;
  const paid = await reads.paidBetween(accountId, from, to);
  const txids = received.map((p) => p.txid).filter((t): t is string => t !== null);
  const matching = await reads.chargesMatching(
    accountId,
    received.map((p) => p.endToEndId),
    txids,
  );
  const byE2e = new Map<string, TransactionRow>();
  for (const tx of [...paid, ...matching]) if (tx.endToEndId) byE2e.set(tx.endToEndId, tx);
  const byTxid = new Map(matching.filter((tx) => tx.pixTxid).map((tx) => [tx.pixTxid!, tx]));
  const seen = new Set<string>();
  const heal: ReceivedPix[] = [];
  /** Received Pix Cofre knows, with the charge they belong to: their devoluções are compared next. */
  const known: { pix: ReceivedPix; tx: TransactionRow }[] = [];
  for (const p of received) {
    add(psp.received, p.amount);
    const tx = byE2e.get(p.endToEndId);
    if (tx) {
      seen.add(tx.id);
      known.push({ pix: p, tx });
      add(cofre.received, tx.amount);
      if (tx.amount !== p.amount)
        differences.push(diff("amount_differs", p.endToEndId, `ch_${tx.id}`, p.amount, tx.amount));
      continue;
    }
    const owner = p.txid ? byTxid.get(p.txid) : undefined;
    const ret = owner ? pixReturnOf(owner, p.endToEndId) : undefined;
    if (owner && ret) {
      // A Pix Cofre received and gives back (another amount, payer or a late payment): known.
      known.push({ pix: p, tx: owner });
      add(cofre.received, ret.amount);
      if (ret.amount !== p.amount)
        differences.push(diff("amount_differs", p.endToEndId, `ch_${owner.id}`, p.amount, ret.amount));
      continue;
    }
    if (owner) heal.push(p);
    differences.push(
      diff("missing_in_cofre", p.endToEndId, owner ? `ch_${owner.id}` : null, p.amount, null, owner !== undefined),
    );
  }
  for (const tx of paid) {
    if (seen.has(tx.id)) continue;
    add(cofre.received, tx.amount);
    differences.push(diff("missing_at_psp", tx.endToEndId, `ch_${tx.id}`, null, tx.amount));
  }
  differences.push(...(await devolutionDifferences(deps, accountId, known)));
  if (heal.length) {
    // The normal confirmation path: a status check job per charge (GET /pix/{e2eid}), then applySettlementNotice.
    const r = await acceptNotificationItems(
      deps,
      { accountId, livemode: true },
      "PIX",
      heal.map((p) => ({ ref: { txid: p.txid!, endToEndId: p.endToEndId } })),
    );
    deps.logger.info(
      { account_id: accountId, date: day, queued: r.accepted },
      "reconciliation: Pix received at the PSP but not settled in Cofre queued for confirmation",
    );
  }

  // Sent: every PSP send against the payouts and cashout refunds with its idEnvio.
  if (sent) {
    const cofreSends = new Map<string, CofreSend>();
    const ids = sends.map((s) => s.sendId).filter((s): s is string => s !== null);
    const extra = await reads.sentBySendIds(accountId, ids);
    const payouts = [...(await reads.payoutsSentBetween(accountId, from, to)), ...extra.payouts];
    const refunds = [...(await reads.cashoutsBetween(accountId, from, to)), ...extra.refunds];
    for (const p of payouts) {
      const state = payoutState(p);
      if (state) cofreSends.set(p.sendId, { referenceId: p.id, amount: p.amount, state, endToEndId: p.endToEndId });
    }
    for (const r of refunds) {
      const state = refundState(r);
      if (state && r.providerRefundId)
        cofreSends.set(r.providerRefundId, { referenceId: r.id, amount: r.amount, state, endToEndId: null });
    }
    const matched = new Set<string>();
    for (const s of sends) {
      if (s.status === "paid") add(psp.sent, s.amount);
      const mine = s.sendId ? cofreSends.get(s.sendId) : undefined;
      if (!mine) {
        differences.push(diff("missing_in_cofre", s.endToEndId, null, s.amount, null));
        continue;
      }
      matched.add(s.sendId!);
      if (mine.state === "paid") add(cofre.sent, mine.amount);
      if (mine.amount !== s.amount)
        differences.push(
          diff("amount_differs", s.endToEndId ?? mine.endToEndId, mine.referenceId, s.amount, mine.amount),
        );
      else if (mine.state !== s.status)
        differences.push(
          diff("status_differs", s.endToEndId ?? mine.endToEndId, mine.referenceId, s.amount, mine.amount),
        );
    }
    for (const [sendId, mine] of cofreSends) {
      if (matched.has(sendId)) continue;
      if (mine.state === "paid") add(cofre.sent, mine.amount);
      differences.push(diff("missing_at_psp", mine.endToEndId, mine.referenceId, null, mine.amount));
    }
  }

  // Infractions of the day at the PSP on a Pix Cofre does not know (live MED).
  for (const inf of await reads.unknownInfractionsBetween(accountId, from, to))
    differences.push(diff("missing_in_cofre", inf.endToEndId, inf.id, inf.amount, null));

  const now = deps.clock.nowMs();
  const result: PublicReconciliation = {
    object: "reconciliation",
    date: day,
    status: differences.length ? "mismatched" : "matched",
    psp,
    cofre,
    differences,
    reconciled_at: iso(now),
  };
  await deps.store.tx(async (uow) => {
    await uow.reconciliation.saveResult({
      accountId,
      date: day,
      connectionId: conn.id,
      status: result.status,
      result: JSON.stringify(result),
      createdAt: now,
      updatedAt: now,
    });
  });
  return result;
}

type ReturnState = ReceivedPix["returns"][number]["status"];
/** A devolução as Cofre holds it: `state` null while not yet submitted (PENDING). */
interface CofreReturn {
  referenceId: string;
  amount: number;
  state: ReturnState | null;
}

const REFUND_RETURN_STATE: Record<string, ReturnState | null> = {
  PENDING: null,
  IN_PROGRESS: "IN_PROGRESS",
  REFUNDED: "REFUNDED",
  FAILED: "FAILED",
};
const PIX_RETURN_STATE: Record<string, ReturnState | null> = {
  PENDING: null,
  IN_PROGRESS: "IN_PROGRESS",
  RETURNED: "REFUNDED",
  FAILED: "FAILED",
};

/**
 * The devoluções the PSP lists under each known received Pix (`devolucoes[]`, by id) against
 * Cofre's devolution refunds of its charge (`provider_refund_id`) and the returns recorded on it:
 * missing on either side, another amount, another outcome (a not yet submitted one matches any
 * status in progress and is never missing at the PSP).
 */
async function devolutionDifferences(
  deps: Deps,
  accountId: string,
  known: { pix: ReceivedPix; tx: TransactionRow }[],
): Promise<PublicDifference[]> {
  if (known.length === 0) return [];
  const refunds = await deps.store.read.reconciliation.devolutionsOf(accountId, [
    ...new Set(known.map((k) => k.tx.id)),
  ]);
  const out: PublicDifference[] = [];
  for (const { pix, tx } of known) {
    const mine = new Map<string, CofreReturn>();
    if (tx.endToEndId === pix.endToEndId)
      for (const r of refunds)
        if (r.transactionId === tx.id && r.providerRefundId)
          mine.set(r.providerRefundId, {
            referenceId: r.id,
            amount: r.amount,
            state: REFUND_RETURN_STATE[r.status] ?? null,
          });
    for (const r of pixReturnsOf(tx))
      if (r.endToEndId === pix.endToEndId)
        mine.set(r.id, {
          referenceId: `ch_${tx.id}`,
          amount: r.amount,
          state: PIX_RETURN_STATE[r.status ?? "PENDING"] ?? null,
        });
    const listed = new Set<string>();
    for (const d of pix.returns) {
      listed.add(d.id);
      const m = mine.get(d.id);
      if (!m) out.push(diff("missing_in_cofre", pix.endToEndId, null, d.amount, null));
      else if (m.amount !== d.amount)
        out.push(diff("amount_differs", pix.endToEndId, m.referenceId, d.amount, m.amount));
      else if ((m.state ?? "IN_PROGRESS") !== d.status)
        out.push(diff("status_differs", pix.endToEndId, m.referenceId, d.amount, m.amount));
    }
    for (const [id, m] of mine)
      if (!listed.has(id) && m.state !== null)
        out.push(diff("missing_at_psp", pix.endToEndId, m.referenceId, null, m.amount));
  }
  return out;
}

function diff(
  kind: PublicDifference["kind"],
  e2e: string | null,
  ref: string | null,
  pspAmount: number | null,
  cofreAmount: number | null,
  healed = false,
): PublicDifference {
  return { kind, end_to_end_id: e2e, reference_id: ref, psp_amount: pspAmount, cofre_amount: cofreAmount, healed };
}

function pspDown(message: string): DomainError {
  return new DomainError("service_unavailable", `The PSP did not answer the reconciliation lists: ${message}`);
}

/** The stored days of the scope's account among the last LIST_DAYS São Paulo days, newest first. Throws 403 `live_mode_only`. */
export async function listReconciliations(
  deps: Deps,
  scope: Scope,
): Promise<{ object: "list"; data: PublicReconciliation[] }> {
  assertLive(scope);
  const today = saoPauloDate(deps.clock.nowMs());
  const rows = await deps.store.read.reconciliation.listResults(
    scope.accountId,
    addDays(today, -(LIST_DAYS - 1)),
    today,
  );
  return { object: "list", data: rows.map((r) => JSON.parse(r.result) as PublicReconciliation) };
}
