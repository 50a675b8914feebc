/**
 * `PUT|GET|DELETE /v1/operator/accounts/{account_id}/card-provider` (extensions.md "Live cards and
 * boletos through Stripe"): the account's live card provider connection (src/domain/card-provider).
 * Not mounted when COFRE_OPERATOR_TOKEN is unset (404).
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { connectCardProvider, deleteCardConnection, getCardConnection } from "../../../domain/card-provider/service";
import { CardProviderConnectionSchema } from "../../../domain/card-provider/views";
import { operatorAuth } from "../../plugins/operator-auth";
import { BODY_ERRORS, op } from "../../openapi";
import { StrictObject, Str, Type } from "../../schemas";

/** The PUT body (extensions.md). */
const ConnectBody = StrictObject({
  type: Type.Literal("stripe", {
    description: "The card provider: `stripe` (hosted Checkout for cards, PaymentIntents for boletos).",
  }),
  secret_key: Str({
    minLength: 8,
    maxLength: 512,
    description:
      "The Stripe secret key (`sk_live_...`, or a restricted `rk_...`). Stored encrypted; never returned or logged.",
  }),
  api_base: Type.Optional(
    Str({
      minLength: 1,
      maxLength: 2048,
      description:
        "API origin, default `https://api.stripe.com` (the simulator's, e.g. `http://127.0.0.1:12111`, in tests and demos).",
    }),
  ),
});

const Params = t.Object({ account_id: t.String() });
const PATH = "/v1/operator/accounts/:account_id/card-provider";

export function operatorCardProviderRoutes(deps: Deps) {
  return new Elysia()
    .use(operatorAuth(deps))
    .put(PATH, ({ params, body }) => connectCardProvider(deps, params.account_id, body), {
      params: Params,
      body: ConnectBody,
      detail: op({
        tags: ["operator"],
        security: "operator",
        summary: "Connect an account's live cards and boletos to Stripe (replaces any card connection)",
        description:
          "Checks the key (`GET /v1/account`) and creates Cofre's webhook endpoint `{COFRE_PUBLIC_URL}/v1/provider-webhooks/stripe/{id}` for every event at Stripe (refused or unreachable -> 422 `provider_connection_failed` with Stripe's reason; nothing is stored), then stores the connection with the secret key and the endpoint's signing secret encrypted. A second PUT replaces the connection (new id; the old endpoint is deleted at Stripe). Live `CREDIT_CARD` and `BOLETO` payments then go through it. Secrets are never returned.",
        ok: { 200: CardProviderConnectionSchema },
        errors: [...BODY_ERRORS, 401, 404, 422],
        requestExample: { type: "stripe", secret_key: "sk_live_...", api_base: "https://api.stripe.com" },
      }),
    })
    .get(PATH, ({ params }) => getCardConnection(deps, params.account_id), {
      params: Params,
      detail: op({
        tags: ["operator"],
        security: "operator",
        summary: "Read an account's card provider connection (no secret)",
        ok: { 200: CardProviderConnectionSchema },
        errors: [401, 404],
      }),
    })
    .delete(
      PATH,
      async ({ params, set }) => {
        await deleteCardConnection(deps, params.account_id);
        set.status = 204;
      },
      {
        params: Params,
        body: StrictObject({}),
        detail: op({
          tags: ["operator"],
          security: "operator",
          summary: "Disconnect an account's live cards and boletos (204)",
          description:
            "Live `CREDIT_CARD` and `BOLETO` answer 422 again; payments already created keep settling through polls. The webhook endpoint is deleted at Stripe (best effort).",
          ok: { 204: { empty: "Disconnected." } },
          errors: [...BODY_ERRORS, 401, 404],
        }),
      },
    );
}
