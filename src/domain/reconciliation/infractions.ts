/**
 * Live MED from the PSP (issue 27 §3; extensions.md "Live MED from the PSP"): every
 * INFRACTION_POLL_EVERY_MS (5 min) one recurring job lists, per active connection that serves
 * infractions (`efi`), `GET /v2/gn/infracoes` over a window that overlaps the previous ones
 * (INFRACTION_WINDOW_MS back, widened to the oldest infraction whose case is still waiting for
 * the PSP, so a later status is seen whichever time the PSP filters on), and for each infraction:
 *   new, naming a live charge of the account  -> a MED case through applyMedNotice (type `med`,
 *       amount = `valor`, a partial claim holds only that much; response_deadline =
 *       `dadosAnalise.prazoFinalizacao`; externalId = `idInfracao`, so the case opens once)
 *   new, naming an unknown end-to-end id      -> logged once, kept without a case (reconciliation
 *       lists it as `missing_in_cofre` on the day of its `criadoEm`)
 *   a later status of a case's infraction     -> ACEITA: ruling `upheld` (rejected, money_outcome
 *       lost); REJEITADA: `merchant_favor`, CANCELADA_EFI: `withdrawn` (both closed,
 *       refunded_to_merchant); a case already final stays as it is
 * The operator forwards the merchant's appeal with `submitDefense` (`POST .../infracoes/{id}/defesa`).
 */
import type { Deps } from "../deps";
import type { PaymentProvider, PspInfraction } from "../providers/types";
import type { MedCaseRow, PixProviderConnectionRow, PspInfractionRow } from "../../store/rows";
import { DomainError, notFound } from "../errors";
import { applyMedNotice, resolveCase } from "../med/service";
import { isFinal, type MedMethod, type Resolution } from "../med/model";

export const INFRACTION_POLL_JOB = "med.infraction_poll";
/** Period of the poll, ms (5 min). */
export const INFRACTION_POLL_EVERY_MS = 300_000;
/** Window each poll lists at least, ms (15 min back from now: three polls overlap). */
export const INFRACTION_WINDOW_MS = 900_000;

/** Ruling of each final infraction status. */
const RULING: Partial<Record<PspInfraction["status"], Resolution>> = {
  ACEITA: "upheld",
  REJEITADA: "merchant_favor",
  CANCELADA_EFI: "withdrawn",
};

/** `metadata.med.method` of Efí's `tipoSituacao`. */
function methodOf(kind: string | null): MedMethod {
  const k = (kind ?? "").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  if (k.includes("golpe")) return "scam";
  if (k.includes("coercao")) return "coercion";
  if (k.includes("acesso fraudulento")) return "invasion";
  if (k.includes("aquisicao")) return "unauthorized";
  return "other";
}

export interface InfractionPollResult {
  connections: number;
  opened: number;
  updated: number;
  unknown: number;
}

/** One poll at the clock's now over every active connection; a connection's failure does not stop the others. */
export async function pollInfractions(deps: Deps): Promise<InfractionPollResult> {
  const result: InfractionPollResult = { connections: 0, opened: 0, updated: 0, unknown: 0 };
  for (const conn of await deps.store.read.pixProvider.listActive()) {
    const provider = deps.providers.forConnection(conn.id);
    if (!provider?.listInfractions) continue;
    try {
      await pollConnection(deps, conn, provider, result);
      result.connections++;
    } catch (err) {
      deps.logger.warn({ connection_id: conn.id, reason: (err as Error).message }, "med: the infraction poll failed");
    }
  }
  return result;
}

async function pollConnection(
  deps: Deps,
  conn: PixProviderConnectionRow,
  provider: PaymentProvider,
  result: InfractionPollResult,
): Promise<void> {
  const now = deps.clock.nowMs();
  const oldest = await deps.store.read.reconciliation.oldestActiveInfraction(conn.id);
  const from = Math.min(now - INFRACTION_WINDOW_MS, oldest === null ? Infinity : oldest - 60_000);
  const listed = await provider.listInfractions!(deps.providers.ctx, { from, to: now });
  if (listed.status !== "listed") {
    deps.logger.warn(
      { connection_id: conn.id, code: listed.code, reason: listed.message },
      "med: could not list the PSP's infractions",
    );
    return;
  }
  for (const inf of listed.infractions) {
    try {
      await applyInfraction(deps, conn, inf, result);
    } catch (err) {
      deps.logger.warn(
        { connection_id: conn.id, infraction_id: inf.id, reason: (err as Error).message },
        "med: an infraction could not be applied",
      );
    }
  }
}

/** Applies one listed infraction (see the module header); idempotent under repeated polls. */
export async function applyInfraction(
  deps: Deps,
  conn: PixProviderConnectionRow,
  inf: PspInfraction,
  result?: InfractionPollResult,
): Promise<void> {
  const reads = deps.store.read.reconciliation;
  const known = await reads.infraction(conn.id, inf.id);
  let caseId = known?.caseId ?? null;
  if (caseId === null) {
    const [charge] = await reads.chargesMatching(conn.accountId, [inf.endToEndId], []);
    if (!charge || charge.endToEndId !== inf.endToEndId) {
      if (!known) {
        deps.logger.warn(
          { connection_id: conn.id, infraction_id: inf.id, end_to_end_id: inf.endToEndId },
          "med: an infraction names an end-to-end id Cofre does not know",
        );
        if (result) result.unknown++;
      }
      await save(deps, conn, inf, known, null);
      return;
    }
    let opened: MedCaseRow;
    try {
      opened = await applyMedNotice(deps, {
        accountId: conn.accountId,
        livemode: true,
        transactionId: charge.id,
        externalId: inf.id,
        type: "med",
        amount: inf.amount,
        partial: true,
        reason: inf.reason,
        method: methodOf(inf.kind),
        responseDeadline: inf.deadline !== null && inf.deadline > deps.clock.nowMs() ? inf.deadline : null,
        openedAt: inf.createdAt,
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // Not paid, or another case still active: kept without a case, listed by reconciliation.
      if (!known)
        deps.logger.warn(
          { connection_id: conn.id, infraction_id: inf.id, reason: err.message },
          "med: no case could open for an infraction",
        );
      await save(deps, conn, inf, known, null);
      return;
    }
    caseId = opened.id;
    if (result && !known?.caseId) result.opened++;
  }
  const ruling = RULING[inf.status];
  if (ruling && known?.status !== inf.status) {
    const row = await deps.store.read.med.caseById(caseId);
    if (row && !isFinal(row.status)) {
      await resolveCase(deps, null, caseId, ruling);
      if (result) result.updated++;
    }
  }
  await save(deps, conn, inf, known, caseId);
}

async function save(
  deps: Deps,
  conn: PixProviderConnectionRow,
  inf: PspInfraction,
  known: PspInfractionRow | undefined,
  caseId: string | null,
): Promise<void> {
  const now = deps.clock.nowMs();
  if (known && known.status === inf.status && known.caseId === caseId && known.amount === inf.amount) return;
  await deps.store.tx(async (uow) => {
    await uow.reconciliation.putInfraction({
      connectionId: conn.id,
      id: inf.id,
      accountId: conn.accountId,
      endToEndId: inf.endToEndId,
      amount: inf.amount,
      status: inf.status,
      caseId,
      pspCreatedAt: inf.createdAt,
      defenseSentAt: known?.defenseSentAt ?? null,
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
    });
  });
}

/**
 * The operator forwards the merchant's appeal of case `caseId` to the PSP
 * (`POST /v2/gn/infracoes/{idInfracao}/defesa` `{analise: "rejeitado", justificativa: appeal_reason}`)
 * and gets the case back. Throws 404 `not_found`, 400 `invalid_state` (the case did not come from
 * a PSP infraction, is not `appealed`, or its defence was already forwarded), 503
 * `service_unavailable` (the PSP did not answer), 422 `unprocessable_entity` (the PSP refused it).
 */
export async function submitDefense(deps: Deps, caseId: string): Promise<MedCaseRow> {
  const row = await deps.store.read.med.caseById(caseId);
  if (!row) throw notFound("MED case");
  const inf = await deps.store.read.reconciliation.infractionOfCase(caseId);
  if (!inf)
    throw new DomainError(
      "invalid_state",
      "This MED case was not opened from a PSP infraction: there is nothing to forward.",
    );
  if (row.status !== "appealed" || !row.appealReason)
    throw new DomainError(
      "invalid_state",
      `Only an appealed case has a defence to forward; this case is ${row.status}.`,
    );
  if (inf.defenseSentAt !== null)
    throw new DomainError("invalid_state", "The defence of this case was already forwarded to the PSP.");
  const provider = deps.providers.forConnection(inf.connectionId);
  if (!provider?.submitDefense)
    throw new DomainError("unprocessable_entity", "The case's provider connection cannot forward a defence.");
  const r = await provider.submitDefense(deps.providers.ctx, { infractionId: inf.id, justification: row.appealReason });
  if (r.status !== "settled") {
    if (r.status === "retryable" || r.status === "auth_failed")
      throw new DomainError("service_unavailable", `The PSP did not take the defence: ${r.message}`);
    throw new DomainError("unprocessable_entity", `The PSP refused the defence: ${r.message}`);
  }
  const now = deps.clock.nowMs();
  await deps.store.tx(async (uow) => {
    await uow.reconciliation.putInfraction({ ...inf, defenseSentAt: now, updatedAt: now });
  });
  deps.logger.info({ case_id: caseId, infraction_id: inf.id }, "med: defence forwarded to the PSP");
  return row;
}
