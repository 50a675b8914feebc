/**
 * Returning a live Pix that must go back (interface.md charge status table: "money is returned
 * automatically to the payer as a Pix return addressed by the original end-to-end id"; issue 14):
 * a Pix received through a provider connection for a charge that does not take it - a different
 * amount, another payer under the payer lock, paid at or after `expires_at`, or paid on a charge
 * already EXPIRED or CANCELLED - sits at the PSP and is returned whole with a devolução (natureza
 * ORIGINAL, id = the devolution id `D...` recorded here). Nothing moves in the ledger: that money
 * was never credited. The sandbox (no connection) only records its devolution id, as before.
 *
 * Record: one per returned Pix in `method_details.PIX.returns` (a list; its entries are keyed by
 * `endToEndId`), each `{id, endToEndId, amount, reason, at, status}` (status
 * PENDING -> IN_PROGRESS -> RETURNED | FAILED, `failureReason` on FAILED); `method_details.PIX.return`
 * keeps the first one as before (the sandbox's payer lock writes only that), so a second Pix
 * never overwrites the record of the first. Both are internal (no public view shows
 * `method_details`). Written in the
 * settlement's own transaction with the job `pix.return` (payload `{transactionId, endToEndId,
 * returnId, amount, requestedAt}`, dedupe `pix.return:<endToEndId>`), so a Pix is returned once
 * however many callbacks, polls and sweeps report it. The job calls the charge's own connection
 * (`returnPayment` while PENDING, then `returnStatus`) outside any transaction and records each
 * answer; NAO_REALIZADO is logged at warn (the operator must act).
 */
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import type { JobOutcome } from "../jobs";
import type { PaymentReturnRequest, RefundOutcome, TransactionRow } from "../providers/types";
import { methodDetails } from "../payments/views";
import type { Uow } from "../../store/port";

/** Job kind that returns a Pix with its provider. */
export const PIX_RETURN_JOB = "pix.return";
/** A call that failed without an answer is tried again this much later, ms. */
const RETRY_MS = 30_000;

export type PixReturnStatus = "PENDING" | "IN_PROGRESS" | "RETURNED" | "FAILED";
/** Why a Pix goes back. */
export type PixReturnReason = "amount_mismatch" | "payer_mismatch" | "late_payment";

/** One entry of `method_details.PIX.returns` (and `PIX.return`, the first of them). */
export interface PixReturnRecord {
  id: string;
  endToEndId: string;
  /** Minor units (the whole Pix). */
  amount: number;
  reason: PixReturnReason;
  at: string;
  status?: PixReturnStatus;
  failureReason?: string;
}

function isRecord(v: unknown): v is PixReturnRecord {
  return (
    !!v &&
    typeof v === "object" &&
    typeof (v as PixReturnRecord).endToEndId === "string" &&
    typeof (v as PixReturnRecord).id === "string"
  );
}

/**
 * Every return recorded on `row` (`PIX.returns`, plus a `PIX.return` written before the list existed), oldest first.
 */
export function pixReturnsOf(row: Pick<TransactionRow, "methodDetails">): PixReturnRecord[] {
  const pix = methodDetails(row).PIX ?? {};
  const list = Array.isArray(pix.returns) ? pix.returns.filter(isRecord) : [];
  const first = pix.return;
  if (isRecord(first) && !list.some((r) => r.endToEndId === first.endToEndId)) list.unshift(first);
  return list;
}

/** The row's recorded return of Pix `endToEndId`, or undefined. */
export function pixReturnOf(
  row: Pick<TransactionRow, "methodDetails">,
  endToEndId: string,
): PixReturnRecord | undefined {
  return pixReturnsOf(row).find((r) => r.endToEndId === endToEndId);
}

/** True when Pix `endToEndId` of `row` already has a return under way or done. */
export function isPixReturnQueued(row: Pick<TransactionRow, "methodDetails">, endToEndId: string): boolean {
  return pixReturnOf(row, endToEndId)?.status !== undefined;
}

/** `method_details` of `row` with `ret` written as the return of its Pix (replacing only that Pix's entry). */
function withReturn(row: TransactionRow, ret: PixReturnRecord): string {
  const details = methodDetails(row);
  const pix = details.PIX ?? {};
  const list = pixReturnsOf(row);
  const i = list.findIndex((r) => r.endToEndId === ret.endToEndId);
  if (i >= 0) list[i] = ret;
  else list.push(ret);
  const first = isRecord(pix.return) && pix.return.endToEndId !== ret.endToEndId ? pix.return : list[0];
  return JSON.stringify({ ...details, PIX: { ...pix, return: first, returns: list } });
}

/**
 * Inside the settlement's unit of work `uow`: records that Pix `ret.endToEndId` of live charge
 * `row` goes back (keeping a record already written for it, e.g. the payer lock's) and queues its
 * job (logged once the unit commits). A charge without a connection (sandbox) is left as it is.
 * Returns the row as it now stands and whether this call queued the return (false: not live, or
 * already queued before).
 */
export async function queuePixReturnIn(
  deps: Deps,
  uow: Uow,
  row: TransactionRow,
  ret: Omit<PixReturnRecord, "at" | "status">,
): Promise<{ row: TransactionRow; queued: boolean }> {
  if (!row.providerConnectionId || isPixReturnQueued(row, ret.endToEndId)) return { row, queued: false };
  const now = deps.clock.nowMs();
  const record: PixReturnRecord = { ...ret, at: iso(now), ...pixReturnOf(row, ret.endToEndId), status: "PENDING" };
  const updated = await uow.charges.update(row.id, { methodDetails: withReturn(row, record), updatedAt: now });
  await deps.jobs.enqueue(uow, {
    kind: PIX_RETURN_JOB,
    payload: {
      transactionId: row.id,
      endToEndId: record.endToEndId,
      returnId: record.id,
      amount: record.amount,
      requestedAt: now,
    },
    dedupeKey: `${PIX_RETURN_JOB}:${record.endToEndId}`,
  });
  uow.afterCommit(() =>
    deps.logger.info(
      { transactionId: row.id, endToEndId: record.endToEndId, returnId: record.id, reason: record.reason },
      "pix return: queued",
    ),
  );
  return { row: updated, queued: true };
}

/**
 * Inside `uow`: a notification names devoluções `ids` of a Pix of `row` (a callback's
 * `devolucoes[].id`): each of the row's returns still under way that it names is checked now by its job.
 */
export async function hintPixReturn(
  deps: Deps,
  uow: Uow,
  row: TransactionRow,
  ids: readonly string[],
  now: number,
): Promise<void> {
  if (!row.providerConnectionId) return;
  for (const r of pixReturnsOf(row)) {
    if (!ids.includes(r.id) || (r.status !== "PENDING" && r.status !== "IN_PROGRESS")) continue;
    const requestedAt = Date.parse(r.at);
    await deps.jobs.enqueueNoLaterThan(uow, {
      kind: PIX_RETURN_JOB,
      payload: {
        transactionId: row.id,
        endToEndId: r.endToEndId,
        returnId: r.id,
        amount: r.amount,
        requestedAt: Number.isFinite(requestedAt) ? requestedAt : now,
      },
      dueAt: now,
      dedupeKey: `${PIX_RETURN_JOB}:${r.endToEndId}`,
    });
  }
}

/** The return status an outcome amounts to, or null when it says nothing new (a failure to retry). */
export function pixReturnStatusOf(o: RefundOutcome): PixReturnStatus | null {
  if (o.status === "settled") return "RETURNED";
  if (o.status === "pending") return o.inProgress ? "IN_PROGRESS" : "PENDING";
  if (o.status === "rejected") return "FAILED";
  return null;
}

interface PixReturnJob {
  transactionId: string;
  endToEndId: string;
  returnId: string;
  amount: number;
  requestedAt: number;
}

/** One step of a return with the charge's provider (see the module header). */
export async function runPixReturn(deps: Deps, job: PixReturnJob): Promise<JobOutcome> {
  const row = await deps.store.read.charges.byId(job.transactionId);
  if (!row) return;
  const current = pixReturnOf(row, job.endToEndId)?.status ?? "PENDING";
  if (current === "RETURNED" || current === "FAILED") return;
  const provider = deps.providers.forTransaction(row, "PIX");
  if (!provider?.returnPayment || !provider.returnStatus) {
    deps.logger.warn(
      { transactionId: row.id, endToEndId: job.endToEndId },
      "pix return: the charge's provider cannot return a Pix",
    );
    return;
  }
  const req: PaymentReturnRequest = {
    transaction: row,
    endToEndId: job.endToEndId,
    returnId: job.returnId,
    amount: job.amount,
    requestedAt: job.requestedAt,
  };
  const o =
    current === "PENDING"
      ? await provider.returnPayment(deps.providers.ctx, req)
      : await provider.returnStatus(deps.providers.ctx, req);
  const to = pixReturnStatusOf(o);
  const log = { transactionId: row.id, endToEndId: job.endToEndId, returnId: job.returnId, amount: job.amount };
  if (to === null) {
    const f = o as Exclude<RefundOutcome, { status: "settled" | "pending" }>;
    if (f.status === "auth_failed")
      deps.logger.warn(
        { ...log, code: f.code, reason: f.message },
        "pix return: the provider refused our credentials; retrying later",
      );
    return { retryAt: f.retryAt ?? deps.clock.nowMs() + RETRY_MS };
  }
  if (o.status === "rejected")
    deps.logger.warn(
      { ...log, code: o.code, reason: o.message },
      "pix return: the PSP did not return the Pix (NAO_REALIZADO): the operator must act",
    );
  await deps.store.tx(async (uow) => {
    const now = await uow.charges.lockForChange(row.id);
    const rec = now && pixReturnOf(now, job.endToEndId);
    if (!now || !rec || rec.status === to) return;
    const next: PixReturnRecord = {
      ...rec,
      status: to,
      ...(o.status === "rejected" ? { failureReason: `${o.code}: ${o.message}`.slice(0, 300) } : {}),
    };
    await uow.charges.update(now.id, { methodDetails: withReturn(now, next), updatedAt: deps.clock.nowMs() });
  });
  if (o.status === "pending") return { retryAt: o.checkAt ?? deps.clock.nowMs() + RETRY_MS };
}

/** Registers the return job (called from registerChargeJobs). */
export function registerPixReturnJobs(deps: Deps): void {
  deps.jobs.register(PIX_RETURN_JOB, (job) => runPixReturn(deps, job.payload as PixReturnJob));
}
