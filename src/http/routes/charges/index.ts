/**
 * POST /v1/charges, POST /v1/pix/charges (shortcut: payment_method fixed to `pix`),
 * GET /v1/charges/{id} and GET /v1/charges (cursor list). HTTP only: schemas, status, headers.
 */
import { singleQuery } from "../../query";
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";
import { createCharge, getCharge, listCharges, type CreateChargeBody } from "../../../domain/charges/service";
import { idempotent } from "../../idempotent";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { Amount, Metadata, Str, StrictInt, StrictObject, Type } from "../../schemas";

const Customer = StrictObject({
  name: Type.Optional(Str({ maxLength: 200 })),
  document: Type.Optional(Str({ maxLength: 32 })),
  email: Type.Optional(Str({ maxLength: 254 })),
  phone: Type.Optional(Str({ maxLength: 32 })),
});

const fields = {
  amount: Amount(),
  currency: Type.Optional(Str({ minLength: 1, maxLength: 8 })),
  description: Type.Optional(Str()),
  expires_in: Type.Optional(StrictInt()),
  customer: Type.Optional(Customer),
  expected_payer_tax_id: Type.Optional(Str({ maxLength: 32 })),
  metadata: Type.Optional(Metadata()),
};

/** Body of POST /v1/charges (`payment_method` required by the rules, checked in the service). */
export const ChargeBody = StrictObject({ ...fields, payment_method: Type.Optional(Str({ maxLength: 32 })) });

const tags = ["charges"];

/**
 * One idempotency scope for both creation paths: they create the same Charge, so a key sent to
 * `/v1/charges` and then to `/v1/pix/charges` with the same effective body replays the charge.
 */
const CREATE_SCOPE = "POST /v1/charges";

export function chargeRoutes(deps: Deps) {
  return new Elysia()
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
      { body: ChargeBody, detail: { tags, summary: "Create a Pix charge (Idempotency-Key required)" } },
    )
    .post(
      "/v1/pix/charges",
      ({ request, set, auth, body: sent }) => {
        const body = { ...(sent as CreateChargeBody), payment_method: sent.payment_method ?? "pix" };
        return idempotent(deps, { request, set, auth, body }, CREATE_SCOPE, async (claim) => ({ status: 201, body: await createCharge(deps, auth, body, claim) }), {
          fingerprint: body,
        });
      },
      { body: ChargeBody, detail: { tags, summary: "Create a Pix charge (shortcut: payment_method = pix)" } },
    )
    .get("/v1/charges", ({ auth, request }) => listCharges(deps, auth, singleQuery(request)), {
      detail: { tags, summary: "List charges (cursor: starting_after; page/offset are rejected)" },
    })
    .get("/v1/charges/:id", ({ auth, params }) => getCharge(deps, auth, params.id), {
      detail: { tags, summary: "Retrieve a charge by ch_ id or raw id" },
    });
}
