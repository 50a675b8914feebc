/**
 * GET /v1/account/profile (apikey, dashboard session or bearer token, any role) and PATCH /v1/account/profile
 * (dashboard session or bearer, OWNER/ADMIN): the merchant profile (extensions.md "Merchant profile and a
 * repeatable first run"). HTTP only: the rules are src/domain/accounts/profile.ts.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { getProfile, updateOwnProfile } from "../../../domain/accounts/profile";
import { MerchantProfileSchema } from "../../../domain/accounts/views";
import { apiKeyInAuthorization, authenticateApiKey } from "../../plugins/api-key-auth";
import { authenticateBearer, bearerAuth } from "../../plugins/bearer-auth";
import { Str, StrictObject, Type } from "../../schemas";
import { BODY_ERRORS, op } from "../../openapi";

const NullableText = (max: number, description: string) =>
  Type.Optional(Type.Union([Str({ minLength: 1, maxLength: max }), Type.Null()], { description }));

/** The profile fields the operator settings did not have (also accepted by PATCH /v1/operator/accounts/{id}). */
export const ProfileFields = {
  trade_name: NullableText(200, "Nome fantasia shown to payers (1-200 characters); null = the account name."),
  support_email: NullableText(320, "Support e-mail shown to payers; null clears it."),
  support_phone: NullableText(32, "Support phone in E.164 form (`+5511987654321`); null clears it."),
};

const ProfilePatchBody = StrictObject({
  legal_name: NullableText(200, "Razão social (1-200 characters); null clears it."),
  tax_id: NullableText(
    32,
    "CNPJ (numeric or alphanumeric) or CPF, checksum-valid (else 400 `invalid_tax_id`), stored without punctuation; null clears it.",
  ),
  ...ProfileFields,
});

export function profileRoutes(deps: Deps) {
  // An API key (or the dashboard's cookie session, as on every apikey route), or a bearer token.
  const read = new Elysia()
    .derive({ as: "scoped" }, async ({ request, set }) => {
      const authz = request.headers.get("authorization");
      if (!request.headers.has("apikey") && authz?.startsWith("Bearer ") && !apiKeyInAuthorization(authz))
        return { accountId: (await authenticateBearer(deps, request)).accountId };
      return {
        accountId: (await authenticateApiKey(deps, request.headers.get("apikey"), request, set as never)).accountId,
      };
    })
    .get("/v1/account/profile", ({ accountId }) => getProfile(deps, accountId), {
      detail: op({
        tags: ["account"],
        security: "apikey",
        summary: "The merchant profile: legal and trade name, CNPJ/CPF, support contacts",
        description:
          "200 `{legal_name, trade_name, tax_id, support_email, support_phone, profile_locked}`; unset fields are null.",
        ok: { 200: MerchantProfileSchema },
        errors: [401, 404, 429],
      }),
    });
  const write = new Elysia()
    .use(bearerAuth(deps, { manage: "Editing the merchant profile" }))
    .patch("/v1/account/profile", ({ session, body }) => updateOwnProfile(deps, session, body), {
      body: ProfilePatchBody,
      detail: op({
        tags: ["account"],
        security: "bearer",
        summary: "Change the merchant profile (OWNER or ADMIN; else 403 API_KEY_ROLE_REQUIRED)",
        description:
          "Every field optional; null clears it. 200 the profile after the change. 400 `invalid_tax_id` (CNPJ/CPF check digits), `invalid_request` (blank name, bad e-mail, phone not E.164); 403 `profile_locked` once the platform's operations team locked the profile.",
        ok: { 200: MerchantProfileSchema },
        errors: [...BODY_ERRORS, 401, 403],
        requestExample: {
          trade_name: "Loja Azul",
          tax_id: "11.222.333/0001-81",
          support_email: "ajuda@lojaazul.com.br",
          support_phone: "+5511987654321",
        },
      }),
    });
  return new Elysia().use(read).use(write);
}
