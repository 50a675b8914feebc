/**
 * Fraud and velocity guard (interface.md 403 row; extensions.md Operator API): charges of the key's
 * mode that are still alive (pending, processing, paid) and were created inside
 * `velocity_window_seconds` count; reaching `customer_velocity_max` for one payer document or
 * `account_velocity_max` for the account refuses the next creation with 403.
 */
import { DomainError } from "../errors";
import type { AccountRules } from "../accounts/settings";
import type { ChargesRepo } from "../../store/port/charges";
import { ALIVE } from "./model";

export interface VelocityInput {
  accountId: string;
  livemode: boolean;
  /** Payer document (normalized) of the new charge, when known. */
  document: string | null;
  nowMs: number;
}

/**
 * Throws DomainError `fraud.customer_velocity_exceeded` or `fraud.account_velocity_exceeded` (403)
 * when the new charge would exceed a limit. No query runs when no limit is configured. `charges`
 * is `deps.store.read.charges` outside a unit of work, `uow.charges` inside one.
 */
export async function checkVelocity(charges: ChargesRepo, settings: AccountRules, v: VelocityInput): Promise<void> {
  const sinceMs = v.nowMs - settings.velocity_window_seconds * 1000;
  const scope = { accountId: v.accountId, livemode: v.livemode, statuses: ALIVE, sinceMs };
  if (settings.customer_velocity_max !== null && v.document) {
    if ((await charges.countAlive({ ...scope, document: v.document })) >= settings.customer_velocity_max)
      throw new DomainError(
        "fraud.customer_velocity_exceeded",
        "Too many charges for this payer document in the velocity window.",
      );
  }
  if (settings.account_velocity_max !== null) {
    if ((await charges.countAlive(scope)) >= settings.account_velocity_max)
      throw new DomainError(
        "fraud.account_velocity_exceeded",
        "Too many charges for this account in the velocity window.",
      );
  }
}

/** Whether any velocity limit is configured (checkVelocity reads nothing otherwise; callers skip the call). */
export function velocityLimited(settings: AccountRules): boolean {
  return settings.customer_velocity_max !== null || settings.account_velocity_max !== null;
}
