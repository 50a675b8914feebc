/** Allowlist serializers of accounts and members (never a password hash), with their response schemas. */
import type { AccountSettings } from "./settings";
import type { MerchantProfile } from "./profile";
import type { AccountRow, UserRow } from "../../store/rows";
import { Nullable, OneOf, Type, View, type Static } from "../../lib/view-schema";
import { ROLES, type Role } from "./roles";

/** Operator-controlled settings (extensions.md "Operator API"); also the PATCH response of the operator route. */
export const AccountSettingsSchema = View("AccountSettings", {
  payer_lock_enabled: Type.Boolean(),
  default_expires_in: Type.Integer({ minimum: 60, maximum: 86400, description: "Seconds." }),
  pix_fee_bps: Type.Integer({ minimum: 0, maximum: 10000, description: "Basis points of the amount." }),
  pix_fee_fixed: Type.Integer({ minimum: 0, description: "Centavos." }),
  settlement_delay_seconds: Type.Integer({ minimum: 0, description: "Seconds." }),
  customer_velocity_max: Nullable(Type.Integer({ minimum: 0 })),
  account_velocity_max: Nullable(Type.Integer({ minimum: 0 })),
  velocity_window_seconds: Type.Integer({ minimum: 1, description: "Seconds." }),
  legal_name: Nullable(Type.String({ maxLength: 200, description: "Razão social printed on receipts and boletos." })),
  tax_id: Nullable(
    Type.String({
      description: "CNPJ or CPF without punctuation, printed on receipts and as the boleto's beneficiário.",
    }),
  ),
  payout_fee_fixed: Type.Integer({
    minimum: 0,
    description: "Fixed fee of each payout (and of a cashout refund with passFeeToTenant), centavos.",
  }),
  payout_daily_limit: Nullable(
    Type.Integer({ minimum: 0, description: "Most a São Paulo day of payouts may sum, centavos; null = no limit." }),
  ),
  payout_delay_seconds: Type.Integer({
    minimum: 0,
    maximum: 86400,
    description: "Seconds a payout stays pending (cancellable) before it is sent.",
  }),
});
// Compile-time tie, both directions: the settings type and its schema describe the same keys.
const _settings: Static<typeof AccountSettingsSchema> = {} as AccountSettings;
const _schema: AccountSettings = {} as Static<typeof AccountSettingsSchema>;
void [_settings, _schema];

/** GET /v1/account. */
export const AccountSchema = View("Account", {
  id: Type.String({ examples: ["acct_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  name: Type.String(),
  role: OneOf(ROLES, { description: "The caller's role." }),
  settings: AccountSettingsSchema,
});

/** POST /v1/account/members (201). */
export const MemberSchema = View("Member", { id: Type.String(), email: Type.String(), role: OneOf(ROLES) });

/** GET /v1/account: `{id, name, role, settings}`; `role` is the caller's. */
export function accountView(
  account: AccountRow,
  role: string,
  settings: AccountSettings,
): Static<typeof AccountSchema> {
  return { id: account.id, name: account.name, role: role as Role, settings };
}

/** POST /v1/account/members: `{id, email, role}`. */
export function memberView(user: UserRow): Static<typeof MemberSchema> {
  return { id: user.id, email: user.email, role: user.role as Role };
}

/** GET /v1/account/members: `{data: [{id, email, role}]}`, oldest first. */
export const MemberListSchema = View("MemberList", { data: Type.Array(MemberSchema) });

/** GET and PATCH /v1/account/profile (extensions.md "Merchant profile and a repeatable first run"). */
export const MerchantProfileSchema = View("MerchantProfile", {
  legal_name: Nullable(
    Type.String({ maxLength: 200, description: "Razão social, printed on receipts and as the boleto's beneficiário." }),
  ),
  trade_name: Nullable(
    Type.String({
      maxLength: 200,
      description: "Nome fantasia shown to payers on the checkout page and receipts; null = the account name.",
    }),
  ),
  tax_id: Nullable(
    Type.String({
      description:
        "CNPJ or CPF without punctuation; the checkout shows it masked as payers expect (a CPF's middle digits only).",
    }),
  ),
  support_email: Nullable(Type.String({ description: "Support e-mail shown to payers (normalised)." })),
  support_phone: Nullable(Type.String({ description: "Support phone in E.164 form.", examples: ["+5511987654321"] })),
  profile_locked: Type.Boolean({
    description:
      "true once the platform's operations team locked the profile: PATCH then answers 403 `profile_locked`.",
  }),
});
const _profile: Static<typeof MerchantProfileSchema> = {} as MerchantProfile;
const _profileSchema: MerchantProfile = {} as Static<typeof MerchantProfileSchema>;
void [_profile, _profileSchema];
