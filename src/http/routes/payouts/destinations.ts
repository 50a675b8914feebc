/**
 * Payout destinations (extensions.md "Payouts (money out)"). HTTP only.
 * POST and DELETE take a dashboard session (bearer token or session cookie) of an OWNER or ADMIN:
 * an API key -> 401, another role -> 403 `API_KEY_ROLE_REQUIRED` (bearerAuth `manage`), so a
 * leaked key cannot add a place to send money. GET takes an API key or a session.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import {
  createDestination,
  deleteDestination,
  listDestinations,
  type DestinationInput,
} from "../../../domain/payouts/destinations";
import { PayoutDestinationListSchema, PayoutDestinationSchema } from "../../../domain/payouts/destination-views";
import { authenticateApiKey } from "../../plugins/api-key-auth";
import { authenticateBearer, bearerAuth } from "../../plugins/bearer-auth";
import { Str, StrictObject, Type } from "../../schemas";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const tags = ["payouts"];

/** Every field of either type; which apply to which `type` is the domain's rule (400 naming the field). */
const DestinationBody = StrictObject({
  type: t.Union([t.Literal("pix_key"), t.Literal("bank_account")]),
  pix_key: Type.Optional(
    Str({
      minLength: 1,
      maxLength: 100,
      description: "pix_key: the key (CPF, CNPJ, e-mail, +55 phone in E.164, or EVP UUID).",
    }),
  ),
  pix_key_type: Type.Optional(Str({ maxLength: 16, description: "pix_key: cpf | cnpj | email | phone | evp." })),
  name: Type.Optional(Str({ minLength: 1, maxLength: 140, description: "Holder's name (required for bank_account)." })),
  tax_id: Type.Optional(
    Str({
      minLength: 1,
      maxLength: 32,
      description: "Holder's CPF or CNPJ (required for bank_account); shown masked.",
    }),
  ),
  ispb: Type.Optional(Str({ maxLength: 8, description: "bank_account: the bank's ISPB, 8 digits." })),
  branch: Type.Optional(Str({ maxLength: 4, description: "bank_account: 1-4 digits." })),
  account: Type.Optional(Str({ maxLength: 20, description: "bank_account: digits, check digit included." })),
  account_type: Type.Optional(Str({ maxLength: 16, description: "bank_account: checking | savings." })),
});

/** GET: an `apikey`, a bearer token, or the dashboard session cookie (any role reads). */
function readAuth(deps: Deps) {
  return new Elysia().derive({ as: "scoped" }, async ({ request, set }) => {
    const header = request.headers.get("authorization");
    if (!request.headers.has("apikey") && header && /^Bearer\s+[A-Za-z0-9_-]+\./.test(header))
      return { accountId: (await authenticateBearer(deps, request)).accountId };
    return {
      accountId: (await authenticateApiKey(deps, request.headers.get("apikey"), request, set as never)).accountId,
    };
  });
}

export function payoutDestinationRoutes(deps: Deps) {
  const manage = new Elysia()
    .use(bearerAuth(deps, { manage: true }))
    .post(
      "/v1/payout_destinations",
      async ({ session, body, set }) => {
        const view = await createDestination(
          deps,
          { accountId: session.accountId, userId: session.userId },
          body as DestinationInput,
        );
        set.status = 201;
        return view;
      },
      {
        body: DestinationBody,
        detail: op({
          tags,
          security: "bearer",
          summary: "Register a payout destination (dashboard session of an OWNER or ADMIN only)",
          description:
            "201 the destination `{id: pd_..., object: payout_destination, type, ...fields, created_at}`, account-wide (both modes); `tax_id` (and a CPF/CNPJ key) shown masked. `pix_key` with `pix_key_type` cpf | cnpj (check digits), email, phone (+55 E.164) or evp (UUID), optional `name` and `tax_id`; or `bank_account` with `name`, `tax_id`, `ispb` (8 digits), `branch` (1-4 digits), `account` (digits with the check digit), `account_type` checking | savings. Bad input -> 400 naming the field (`invalid_tax_id` for a CPF/CNPJ). An API key -> 401; a role other than OWNER/ADMIN -> 403 `API_KEY_ROLE_REQUIRED`. Written to the audit log.",
          ok: { 201: PayoutDestinationSchema },
          errors: [...BODY_ERRORS, ...AUTH_ERRORS.bearer, 403],
          requestExample: {
            type: "pix_key",
            pix_key: "fulano@example.com",
            pix_key_type: "email",
            name: "Fulano de Tal",
          },
        }),
      },
    )
    .delete(
      "/v1/payout_destinations/:id",
      async ({ session, params, set }) => {
        await deleteDestination(deps, { accountId: session.accountId, userId: session.userId }, params.id);
        set.status = 204;
      },
      {
        params: t.Object({ id: Str({ minLength: 1, maxLength: 100 }) }),
        detail: op({
          tags,
          security: "bearer",
          summary: "Remove a payout destination (OWNER or ADMIN session)",
          description:
            "204; unknown, another account's or already removed -> 404. Payouts already made keep the destination as it was. Written to the audit log.",
          ok: { 204: { empty: "Removed." } },
          errors: [...BODY_ERRORS, ...AUTH_ERRORS.bearer, 403, 404],
        }),
      },
    );
  const read = new Elysia()
    .use(readAuth(deps))
    .get("/v1/payout_destinations", ({ accountId }) => listDestinations(deps, accountId), {
      detail: op({
        tags,
        security: "apikey",
        summary: "The account's payout destinations `{object: list, data}`, newest first (API key or session)",
        ok: { 200: PayoutDestinationListSchema },
        errors: [...AUTH_ERRORS.apikey],
      }),
    });
  return new Elysia().use(manage).use(read);
}
