/**
 * The merchant's profile (extensions.md "Merchant profile and a repeatable first run"): who the
 * payer is paying. `legal_name` (razão social) and `tax_id` (CNPJ/CPF) are the columns the
 * operator's settings already had; `trade_name`, `support_email`, `support_phone` and the
 * operator's `profile_locked` sit beside them in `accounts`. The merchant edits the profile
 * (OWNER/ADMIN) until the operator locks it; the checkout page, receipts and boletos print it.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { Deps } from "../deps";
import type { AccountSettingsColumns } from "../../store/port/accounts";
import type { AccountRow } from "../../store/rows";
import { isEmailAddress, normalizeEmail } from "../../lib/email";
import { parseTaxId } from "../../pix/tax-id";
import { DomainError, invalidParam, notFound } from "../errors";
import { canManage } from "./roles";

/** The profile as GET/PATCH /v1/account/profile answer it. */
export interface MerchantProfile {
  /** Razão social, 1-200 characters; null until set. */
  legal_name: string | null;
  /** Nome fantasia shown to payers, 1-200 characters; null = the account name is shown. */
  trade_name: string | null;
  /** CNPJ (14 characters) or CPF (11 digits), without punctuation; null until set. */
  tax_id: string | null;
  /** Normalised e-mail address payers may write to; null until set. */
  support_email: string | null;
  /** E.164 phone (`+5511987654321`); null until set. */
  support_phone: string | null;
  /** True once the operator locked the profile (the merchant's PATCH then answers 403 `profile_locked`). */
  profile_locked: boolean;
}

/** The fields a PATCH may set (each optional; null clears it). */
export type ProfilePatch = Partial<Omit<MerchantProfile, "profile_locked">>;

/** The profile held in an account row. */
export function profileOf(a: AccountRow): MerchantProfile {
  return {
    legal_name: a.legalName,
    trade_name: a.tradeName,
    tax_id: a.taxId,
    support_email: a.supportEmail,
    support_phone: a.supportPhone,
    profile_locked: a.profileLocked,
  };
}

/** The name a payer reads: the trade name when set, else the account name. */
export function displayNameOf(a: Pick<AccountRow, "name" | "tradeName">): string {
  return a.tradeName ?? a.name;
}

/**
 * The columns `patch` sets, validated and normalised; throws 400 before anything is written:
 * `invalid_request` (blank name, bad e-mail, phone not a valid E.164 number) or `invalid_tax_id`.
 */
export function profileColumns(patch: ProfilePatch & { profile_locked?: boolean }): AccountSettingsColumns {
  const set: AccountSettingsColumns = {};
  const name = (v: string | null | undefined, param: string) => {
    if (typeof v !== "string") return v;
    const s = v.trim();
    if (!s) throw invalidParam(param, `${param} must not be blank (send null to clear it).`);
    return s;
  };
  if (patch.legal_name !== undefined) set.legalName = name(patch.legal_name, "legal_name");
  if (patch.trade_name !== undefined) set.tradeName = name(patch.trade_name, "trade_name");
  if (patch.tax_id !== undefined) {
    if (patch.tax_id === null) set.taxId = null;
    else {
      const parsed = parseTaxId(patch.tax_id);
      if (!parsed)
        throw invalidParam(
          "tax_id",
          "tax_id must be a checksum-valid CNPJ (14 characters) or CPF (11 digits).",
          "invalid_tax_id",
        );
      set.taxId = parsed.value;
    }
  }
  if (patch.support_email !== undefined) {
    if (patch.support_email === null) set.supportEmail = null;
    else {
      const e = normalizeEmail(patch.support_email);
      if (e.length > 254 || !isEmailAddress(e))
        throw invalidParam("support_email", "support_email must be a valid e-mail address.");
      set.supportEmail = e;
    }
  }
  if (patch.support_phone !== undefined) {
    if (patch.support_phone === null) set.supportPhone = null;
    else {
      const raw = patch.support_phone.trim();
      const phone = /^\+[1-9]\d{7,14}$/.test(raw) ? parsePhoneNumberFromString(raw) : undefined;
      if (!phone?.isValid())
        throw invalidParam(
          "support_phone",
          "support_phone must be a valid phone number in E.164 form (e.g. +5511987654321).",
        );
      set.supportPhone = phone.number;
    }
  }
  if (patch.profile_locked !== undefined) set.profileLocked = patch.profile_locked;
  return set;
}

/** The profile of `accountId`; 404 `not_found` for an account deleted under a live session or key. */
export async function getProfile(deps: Pick<Deps, "store">, accountId: string): Promise<MerchantProfile> {
  const a = await deps.store.read.accounts.byId(accountId);
  if (!a) throw notFound("account");
  return profileOf(a);
}

/**
 * The merchant's own change of the profile (PATCH /v1/account/profile): only OWNER and ADMIN
 * (else 403 `API_KEY_ROLE_REQUIRED`); 403 `profile_locked` once the operator locked it; 400 as
 * `profileColumns`. One unit of work; answers the profile after the change.
 */
export async function updateOwnProfile(
  deps: Pick<Deps, "store">,
  actor: { accountId: string; role: string },
  patch: ProfilePatch,
): Promise<MerchantProfile> {
  if (!canManage(actor.role))
    throw new DomainError("API_KEY_ROLE_REQUIRED", "Editing the merchant profile requires the OWNER or ADMIN role.");
  const set = profileColumns(patch);
  return deps.store.tx(async (uow) => {
    const a = await uow.accounts.byId(actor.accountId);
    if (!a) throw notFound("account");
    if (a.profileLocked)
      throw new DomainError(
        "profile_locked",
        "The platform's operations team locked this profile; ask them to change it.",
      );
    await uow.accounts.updateSettings(actor.accountId, set);
    return profileOf((await uow.accounts.byId(actor.accountId))!);
  });
}
