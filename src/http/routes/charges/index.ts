/**
 * POST /v1/charges, POST /v1/pix/charges (shortcut: payment_method fixed to `pix`),
 * GET /v1/charges/{id} and GET /v1/charges (cursor list). HTTP only: schemas, status, headers.
 */
import { singleQuery } from "../../query";
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { createCharge, getCharge, listCharges, type CreateChargeBody } from "../../../domain/charges/service";
import { idempotent } from "../../idempotent";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { Amount, Metadata, Str, StrictInt, StrictObject, Type } from "../../schemas";
import { ChargeListSchema, ChargeSchema } from "../../../domain/charges/views";
import { CHARGE_STATUSES } from "../../../domain/charges/model";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const Customer = StrictObject({
  name: Type.Optional(Str({ maxLength: 200 })),
  document: Type.Optional(
    Str({ maxLength: 32, description: "CPF (11 digits) or CNPJ (14), punctuation allowed; checked." }),
  ),
  email: Type.Optional(Str({ maxLength: 254 })),
  phone: Type.Optional(Str({ maxLength: 32 })),
});

const fields = {
  amount: Amount({ description: "Centavos (integer, 1 to 10^12)." }),
  currency: Type.Optional(Str({ minLength: 1, maxLength: 8, description: "Default BRL (Pix charges are BRL only)." })),
  description: Type.Optional(Str({ description: "Shown to the payer." })),
  expires_in: Type.Optional(
    StrictInt({ description: "Seconds until the Pix code expires (default: the account's default_expires_in)." }),
  ),
  customer: Type.Optional(Customer),
  expected_payer_tax_id: Type.Optional(
    Str({ maxLength: 32, description: "Payer lock: only this CPF/CNPJ may pay (when the account enables it)." }),
  ),
  metadata: Type.Optional(Metadata()),
};

/** Body of POST /v1/charges (`payment_method` required by the rules, checked in the service). */
export const ChargeBody = StrictObject({
  ...fields,
  payment_method: Type.Optional(Str({ maxLength: 32, description: "Required on POST /v1/charges: `pix`." })),
});

const tags = ["charges"];

/** The example body of both create routes (sent as the reference UI's curl sample sends it). */
const CREATE_EXAMPLE = {
  amount: 1500,
  description: "Pedido 1234",
  expires_in: 3600,
  customer: { name: "Fulano de Tal" },
  metadata: { order_id: "1234" },
};

const createDoc = (summary: string, description: string, example: object) =>
  op({
    tags,
    summary,
    description,
    security: "apikey",
    idempotencyKey: true,
    ok: { 201: ChargeSchema },
    // 403: fraud velocity limits; 422: no live provider; 503: provider unavailable.
    errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 409, 422, 503],
    requestExample: example,
  });

/**
 * One idempotency scope for both creation paths: they create the same Charge, so a key sent to
 * `/v1/charges` and then to `/v1/pix/charges` with the same effective body replays the charge.
 */
const CREATE_SCOPE = "POST /v1/charges";

export function chargeRoutes(deps: Deps) {
  return (
    new Elysia()
      .use(apiKeyAuth(deps))
      // Handlers destructure what they use: Elysia infers from that what to prepare per request
      // (a handler taking the whole context also gets its cookies and query parsed every time).
      .post(
        "/v1/charges",
        ({ request, set, auth, body }) =>
          idempotent(
            deps,
            { request, set, auth, body },
            CREATE_SCOPE,
            async (claim) => ({ status: 201, body: await createCharge(deps, auth, body as CreateChargeBody, claim) }),
            { fingerprint: body },
          ),
        {
          body: ChargeBody,
          detail: createDoc(
            "Create a Pix charge (Idempotency-Key required)",
            "201: the Charge, pending, with its Pix block (BR Code, QR URL) and checkout link. `payment_method` is required (`pix`). Sends `charge.created`.",
            { ...CREATE_EXAMPLE, payment_method: "pix" },
          ),
        },
      )
      .post(
        "/v1/pix/charges",
        ({ request, set, auth, body: sent }) => {
          const body = { ...(sent as CreateChargeBody), payment_method: sent.payment_method ?? "pix" };
          return idempotent(
            deps,
            { request, set, auth, body },
            CREATE_SCOPE,
            async (claim) => ({ status: 201, body: await createCharge(deps, auth, body, claim) }),
            {
              fingerprint: body,
            },
          );
        },
        {
          body: ChargeBody,
          detail: createDoc(
            "Create a Pix charge (shortcut: payment_method = pix)",
            "Same as POST /v1/charges with `payment_method` fixed to `pix`; the same Idempotency-Key scope.",
            CREATE_EXAMPLE,
          ),
        },
      )
      .get("/v1/charges", ({ auth, request }) => listCharges(deps, auth, singleQuery(request)), {
        detail: op({
          tags,
          summary: "List charges (cursor: starting_after; page/offset are rejected)",
          description: "Newest first. Unknown parameters (including `page` and `offset`) or bad values -> 400.",
          security: "apikey",
          ok: { 200: ChargeListSchema },
          errors: [400, ...AUTH_ERRORS.apikey],
          query: [
            { name: "limit", description: "1-100, default 25.", schema: { type: "integer", minimum: 1, maximum: 100 } },
            { name: "starting_after", description: "A ch_ id of your charges: the page after it (`next_cursor`)." },
            { name: "status", description: "Charge status.", schema: { type: "string", enum: [...CHARGE_STATUSES] } },
            { name: "created_after", description: "ISO 8601." },
            { name: "created_before", description: "ISO 8601." },
            { name: "customer_id", description: "The customer's CPF/CNPJ." },
          ],
        }),
      })
      .get("/v1/charges/:id", ({ auth, params }) => getCharge(deps, auth, params.id), {
        detail: op({
          tags,
          summary: "Retrieve a charge by ch_ id or raw id",
          security: "apikey",
          ok: { 200: ChargeSchema },
          errors: [...AUTH_ERRORS.apikey, 404],
        }),
      })
  );
}
