/**
 * Opening a MED from a request body (extensions.md: the sandbox helper
 * `POST /v1/test_helpers/charges/{id}/med` and the operator route `POST /v1/operator/charges/{id}/med`
 * take the same body `{type?, amount?, reason?, response_deadline?}`); both end in `applyMedNotice`,
 * the one opening path (hold, charge status, events, deadline job).
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam, notFound } from "../errors";
import { parseChargeId } from "../charges/service";
import { parseIsoDate } from "./list";
import { MED_METHODS, type MedCaseType, type MedMethod } from "./model";
import type { MedCaseRow } from "../../store/rows";
import { applyMedNotice } from "./service";

/** The opening body (already schema-checked: `amount` a strict positive integer in centavos, `reason` 1-500 chars). */
export interface OpenMedBody {
  type?: MedCaseType;
  amount?: number;
  reason?: string;
  /** ISO 8601 date-time in the future. */
  response_deadline?: string;
}

/**
 * Opens a MED on the paid transaction `transactionId` (raw id) of `scope`. Defaults: type `med`,
 * the full amount; `reason` naming a known method (MED_METHODS) sets `method`, else `other`.
 * Throws 400 `invalid_request` (response_deadline not a future date-time), 404 `not_found`,
 * 400 `invalid_state` (not paid, or a MED already open), 400 `invalid_amount`.
 */
export async function openMedCase(
  deps: Deps,
  scope: { accountId: string; livemode: boolean },
  transactionId: string,
  body: OpenMedBody,
): Promise<MedCaseRow> {
  let responseDeadline: number | null = null;
  if (body.response_deadline !== undefined) {
    responseDeadline = parseIsoDate(body.response_deadline);
    if (responseDeadline === null || responseDeadline <= deps.clock.nowMs())
      throw invalidParam("response_deadline", "response_deadline must be a future ISO 8601 date-time.");
  }
  const reason = body.reason ?? null;
  const method: MedMethod =
    reason && (MED_METHODS as readonly string[]).includes(reason) ? (reason as MedMethod) : "other";
  return applyMedNotice(deps, {
    ...scope,
    transactionId,
    type: body.type,
    amount: body.amount,
    reason,
    method,
    responseDeadline,
  });
}

/**
 * The operator's MED on a live charge of any account (`id`: `ch_` or raw). Throws 404 `not_found`
 * (no such charge), 403 `live_mode_only` (a test-mode charge: the sandbox helper opens those,
 * mirroring its own 403 `test_mode_only`), and every error of openMedCase.
 */
export async function openLiveMedCase(deps: Deps, id: string, body: OpenMedBody): Promise<MedCaseRow> {
  const raw = parseChargeId(id);
  const charge = raw ? await deps.store.read.charges.byId(raw) : undefined;
  if (!charge) throw notFound("charge");
  if (!charge.livemode)
    throw new DomainError(
      "live_mode_only",
      "This is a test-mode charge; open its MED with POST /v1/test_helpers/charges/{id}/med and a test key.",
    );
  return openMedCase(deps, { accountId: charge.accountId, livemode: true }, charge.id, body);
}
