/**
 * `POST /v1/provider-webhooks/stripe/{connection_id}` (extensions.md "Live cards and boletos
 * through Stripe"): where Stripe posts the events of a card connection. Public (Stripe has no API
 * key): the `Stripe-Signature` over the raw body is verified with the connection's signing secret
 * (src/domain/card-provider/events.ts) and the event is only a hint, so it answers 200 with no body
 * at once and confirmation happens in jobs.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { acceptCardEvent } from "../../../domain/card-provider/events";
import { BODY_ERRORS, op } from "../../openapi";
import { Type } from "../../schemas";

/** Raw bodies of provider callbacks, kept by the app's body parser (src/app.ts onParse) for signature checks. */
const rawBodies = new WeakMap<Request, string>();

/** Called by the app's body parser with the text of a provider callback before it is parsed. */
export function keepRawBody(request: Request, text: string): void {
  rawBodies.set(request, text);
}

export function stripeWebhookRoutes(deps: Deps) {
  return new Elysia().post(
    "/v1/provider-webhooks/stripe/:connection_id",
    async ({ params, request }) => {
      await acceptCardEvent(
        deps,
        params.connection_id,
        rawBodies.get(request) ?? "",
        request.headers.get("stripe-signature"),
      );
      return new Response(null, { status: 200 });
    },
    {
      params: t.Object({ connection_id: t.String() }),
      // The event as Stripe sends it; only its signed raw text is read.
      body: Type.Object({}, { additionalProperties: true }),
      detail: op({
        tags: ["provider-webhooks"],
        security: "none",
        summary: "A Stripe event of a card connection: verified, queued for confirmation, 200 at once",
        description:
          "Called by Stripe at the endpoint Cofre created when the connection was made. The `Stripe-Signature` header must verify over the raw body with the endpoint's signing secret (the official `stripe` library's check; else 400, nothing changes). Each event id is taken once. The event is only a hint: Cofre retrieves the Checkout Session, PaymentIntent, refund or dispute with its own key before anything changes. Unknown connection -> 404.",
        ok: { 200: { empty: "Received; confirmation is queued." } },
        errors: [...BODY_ERRORS, 404],
        requestExample: {
          id: "evt_1",
          object: "event",
          type: "checkout.session.completed",
          data: { object: { id: "cs_test_1", object: "checkout.session" } },
        },
      }),
    },
  );
}
