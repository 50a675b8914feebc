/** PATCH /v1/operator/accounts/{account_id}: the operator's account settings (extensions.md "Operator API"). */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { updateAccountSettings } from "../../../domain/accounts/settings";
import { profileColumns } from "../../../domain/accounts/profile";
import { ProfileFields } from "../auth/profile";
import { operatorAuth } from "../../plugins/operator-auth";
import { notFound } from "../../errors";
import { StrictBool, StrictInt, StrictObject, Str, Type } from "../../schemas";
import { AccountSettingsSchema } from "../../../domain/accounts/views";
import { BODY_ERRORS, op } from "../../openapi";

/** 100 years in seconds: upper bound of the duration settings. */
const MAX_SECONDS = 3_153_600_000;
const VelocityMax = () =>
  Type.Union([StrictInt({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()], {
    description: "Charges per velocity window; null = no limit.",
  });

/** Every field optional; ranges of extensions.md "Operator API". */
const SettingsPatch = StrictObject({
  payer_lock_enabled: Type.Optional(StrictBool()),
  default_expires_in: Type.Optional(StrictInt({ minimum: 60, maximum: 86400, description: "Seconds (60-86400)." })),
  pix_fee_bps: Type.Optional(StrictInt({ minimum: 0, maximum: 10000, description: "Basis points of the amount." })),
  pix_fee_fixed: Type.Optional(StrictInt({ minimum: 0, maximum: 1_000_000_000_000, description: "Centavos." })),
  settlement_delay_seconds: Type.Optional(
    StrictInt({ minimum: 0, maximum: MAX_SECONDS, description: "Seconds a paid amount stays pending." }),
  ),
  customer_velocity_max: Type.Optional(VelocityMax()),
  account_velocity_max: Type.Optional(VelocityMax()),
  velocity_window_seconds: Type.Optional(StrictInt({ minimum: 1, maximum: MAX_SECONDS, description: "Seconds." })),
  legal_name: Type.Optional(
    Type.Union([Str({ minLength: 1, maxLength: 200 }), Type.Null()], {
      description: "Razão social printed on receipts and boletos (1-200 characters); null clears it.",
    }),
  ),
  tax_id: Type.Optional(
    Type.Union([Str({ minLength: 1, maxLength: 32 }), Type.Null()], {
      description: "CNPJ (numeric or alphanumeric) or CPF, checksum-valid, stored without punctuation; null clears it.",
    }),
  ),
  payout_fee_fixed: Type.Optional(
    StrictInt({ minimum: 0, maximum: 1_000_000_000_000, description: "Fixed fee of each payout, centavos." }),
  ),
  payout_daily_limit: Type.Optional(
    Type.Union([StrictInt({ minimum: 0, maximum: 1_000_000_000_000_000 }), Type.Null()], {
      description: "Most a São Paulo day of payouts may sum, centavos; null = no limit.",
    }),
  ),
  payout_delay_seconds: Type.Optional(
    StrictInt({
      minimum: 0,
      maximum: 86400,
      description: "Seconds a payout stays pending (cancellable) before it is sent (0-86400).",
    }),
  ),
  ...ProfileFields,
  profile_locked: Type.Optional(
    StrictBool({
      description:
        "true: the merchant can no longer change the profile (PATCH /v1/account/profile -> 403 `profile_locked`).",
    }),
  ),
});

export function operatorAccountRoutes(deps: Deps) {
  return new Elysia().use(operatorAuth(deps)).patch(
    "/v1/operator/accounts/:account_id",
    async ({ params, body }) => {
      const { trade_name, support_email, support_phone, profile_locked, ...rest } = body;
      const settings = await updateAccountSettings(
        deps.store,
        params.account_id,
        rest,
        profileColumns({ trade_name, support_email, support_phone, profile_locked }),
      );
      if (!settings) throw notFound("account");
      return settings;
    },
    {
      params: t.Object({ account_id: t.String() }),
      body: SettingsPatch,
      detail: op({
        tags: ["operator"],
        security: "operator",
        ok: { 200: AccountSettingsSchema },
        errors: [...BODY_ERRORS, 401, 404],
        requestExample: { payer_lock_enabled: true, default_expires_in: 1800 },
        summary: "Change an account's settings (operator token); every field optional",
        description:
          "Returns the account's settings after the change (same keys). Defaults: payer lock off, default_expires_in 3600, fee 0 bps + 0 fixed, settlement delay 86400 s, no velocity limits, velocity window 3600 s, payout fee 0, no payout daily limit, payout delay 0 s. `legal_name` (razão social, up to 200 characters) and `tax_id` (CNPJ or CPF, checksum-valid, stored without punctuation; otherwise 400 `invalid_tax_id`) are printed on receipts and boletos; null clears them. The merchant profile's other fields (`trade_name`, `support_email`, `support_phone`: as PATCH /v1/account/profile) and `profile_locked` may be set here too; they are not part of the answer (GET /v1/account/profile shows them).",
      }),
    },
  );
}
