/** Operator-controlled account settings (extensions.md "Operator API"), read by charges, ledger and fees. */
import type { Repos, Store } from "../../store/port";
import type { AccountSettingsColumns } from "../../store/port/accounts";
import type { AccountRow } from "../../store/rows";
import { invalidParam } from "../errors";
import { parseTaxId } from "../../pix/tax-id";

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
  /** Registered legal name (razão social) printed on receipts and boletos; null until set. */
  legal_name: string | null;
  /** CNPJ (14 characters) or CPF (11 digits), normalised without punctuation; null until set. */
  tax_id: string | null;
  /** Fixed fee of a payout (and of a cashout refund with passFeeToTenant), centavos (>= 0; default 0). */
  payout_fee_fixed: number;
  /** Most a São Paulo day of payouts (not failed, not cancelled) may sum, centavos; null = no limit (default). */
  payout_daily_limit: number | null;
  /** Seconds a payout stays `pending` (cancellable) before it is sent, 0-86400 (default 0). */
  payout_delay_seconds: number;
}

/** The payout settings (extensions.md "Payouts (money out)"). */
export type PayoutRules = Pick<AccountSettings, "payout_fee_fixed" | "payout_daily_limit" | "payout_delay_seconds">;

/** The settings that govern charges, fees, velocity and the ledger (all but the merchant's identity and payouts). */
export type AccountRules = Omit<AccountSettings, "legal_name" | "tax_id" | keyof PayoutRules>;

/** Repositories with accounts: a uow (inside a unit of work) or `store.read`. */
type AccountsSource = Pick<Repos, "accounts">;

/**
 * Settings of `accountId`, or undefined when the account does not exist. Pass the uow inside a
 * unit of work, `store.read` outside one.
 */
export async function getAccountSettings(src: AccountsSource, accountId: string): Promise<AccountSettings | undefined> {
  const a = await src.accounts.byId(accountId);
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
    legal_name: a.legalName,
    tax_id: a.taxId,
    payout_fee_fixed: a.payoutFeeFixed,
    payout_daily_limit: a.payoutDailyLimit,
    payout_delay_seconds: a.payoutDelaySeconds,
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
  legal_name: "legalName",
  tax_id: "taxId",
  payout_fee_fixed: "payoutFeeFixed",
  payout_daily_limit: "payoutDailyLimit",
  payout_delay_seconds: "payoutDelaySeconds",
} as const satisfies Record<keyof AccountSettings, keyof AccountSettingsColumns>;

/**
 * Applies the operator's `patch` (types and ranges already validated by the route: extensions.md
 * "Operator API") in one unit of work and returns the settings after it, or undefined when the
 * account does not exist (nothing written). `legal_name` is trimmed; `tax_id` must be a
 * checksum-valid CNPJ (numeric or alphanumeric) or CPF and is stored normalised; null clears
 * either. `extra`: further columns written in the same unit (the merchant profile's, already
 * validated by profile.ts `profileColumns`). Throws DomainError 400 `invalid_request` (blank
 * legal_name) or `invalid_tax_id`, before writing anything.
 */
export function updateAccountSettings(
  store: Store,
  accountId: string,
  patch: Partial<AccountSettings>,
  extra: AccountSettingsColumns = {},
): Promise<AccountSettings | undefined> {
  const set = { ...settingsColumns(patch), ...extra };
  return store.tx(async (uow) => {
    await uow.accounts.updateSettings(accountId, set);
    return getAccountSettings(uow, accountId);
  });
}

/** The columns `patch` sets, normalised; throws (400) before anything is written. */
function settingsColumns(patch: Partial<AccountSettings>): AccountSettingsColumns {
  patch = { ...patch };
  if (typeof patch.legal_name === "string") {
    patch.legal_name = patch.legal_name.trim();
    if (!patch.legal_name) throw invalidParam("legal_name", "legal_name must not be blank (send null to clear it).");
  }
  if (typeof patch.tax_id === "string") {
    const parsed = parseTaxId(patch.tax_id);
    if (!parsed)
      throw invalidParam(
        "tax_id",
        "tax_id must be a checksum-valid CNPJ (14 characters) or CPF (11 digits).",
        "invalid_tax_id",
      );
    patch.tax_id = parsed.value;
  }
  const set: AccountSettingsColumns = {};
  for (const [k, col] of Object.entries(COLUMNS) as [keyof AccountSettings, (typeof COLUMNS)[keyof AccountSettings]][])
    if (patch[k] !== undefined) (set as Record<string, unknown>)[col] = patch[k];
  return set;
}

/** Platform fee of a paid Pix amount: `round(amount * bps / 10000) + fixed`, never above the amount. */
export function pixFee(settings: Pick<AccountSettings, "pix_fee_bps" | "pix_fee_fixed">, amount: number): number {
  return Math.min(amount, Math.round((amount * settings.pix_fee_bps) / 10000) + settings.pix_fee_fixed);
}
