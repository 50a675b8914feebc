/** Operator-controlled account settings (extensions.md "Operator API"), read by charges, ledger and fees. */
import { eq } from "drizzle-orm";
import { accounts } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import { findAccount, type AccountRow } from "./repo";

export interface AccountSettings {
  payer_lock_enabled: boolean;
  /** Default Pix charge window, seconds (60-86400). */
  default_expires_in: number;
  /** Pix fee in basis points of the amount (0-10000). */
  pix_fee_bps: number;
  /** Fixed Pix fee, centavos. */
  pix_fee_fixed: number;
  /** Seconds a paid amount stays `pending` before it becomes `available`. */
  settlement_delay_seconds: number;
  customer_velocity_max: number | null;
  account_velocity_max: number | null;
  velocity_window_seconds: number;
}

/** Settings of `accountId`, or undefined when the account does not exist. */
export function getAccountSettings(db: DbOrTx, accountId: string): AccountSettings | undefined {
  const a = findAccount(db, accountId);
  return a && settingsOf(a);
}

/** The settings held in an account row. */
export function settingsOf(a: AccountRow): AccountSettings {
  return {
    payer_lock_enabled: a.payerLockEnabled,
    default_expires_in: a.defaultExpiresIn,
    pix_fee_bps: a.pixFeeBps,
    pix_fee_fixed: a.pixFeeFixed,
    settlement_delay_seconds: a.settlementDelaySeconds,
    customer_velocity_max: a.customerVelocityMax,
    account_velocity_max: a.accountVelocityMax,
    velocity_window_seconds: a.velocityWindowSeconds,
  };
}

/** Column of each setting (the wire names are the keys of AccountSettings). */
const COLUMNS = {
  payer_lock_enabled: "payerLockEnabled",
  default_expires_in: "defaultExpiresIn",
  pix_fee_bps: "pixFeeBps",
  pix_fee_fixed: "pixFeeFixed",
  settlement_delay_seconds: "settlementDelaySeconds",
  customer_velocity_max: "customerVelocityMax",
  account_velocity_max: "accountVelocityMax",
  velocity_window_seconds: "velocityWindowSeconds",
} as const satisfies Record<keyof AccountSettings, keyof typeof accounts.$inferInsert>;

/**
 * Applies the operator's `patch` (already validated: ranges of extensions.md "Operator API") and
 * returns the settings after it, or undefined when the account does not exist (nothing written).
 */
export function updateAccountSettings(db: DbOrTx, accountId: string, patch: Partial<AccountSettings>): AccountSettings | undefined {
  const set: Partial<typeof accounts.$inferInsert> = {};
  for (const [k, col] of Object.entries(COLUMNS) as [keyof AccountSettings, (typeof COLUMNS)[keyof AccountSettings]][])
    if (patch[k] !== undefined) (set as Record<string, unknown>)[col] = patch[k];
  if (Object.keys(set).length > 0) db.update(accounts).set(set).where(eq(accounts.id, accountId)).run();
  return getAccountSettings(db, accountId);
}

/** Platform fee of a paid Pix amount: `round(amount * bps / 10000) + fixed`, never above the amount. */
export function pixFee(settings: Pick<AccountSettings, "pix_fee_bps" | "pix_fee_fixed">, amount: number): number {
  return Math.min(amount, Math.round((amount * settings.pix_fee_bps) / 10000) + settings.pix_fee_fixed);
}
