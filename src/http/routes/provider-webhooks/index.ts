/**
 * `POST /v1/provider-webhooks/pix/{connection_id}/pix` (extensions.md "Live Pix over the BCB API
 * Pix (v2)"): where a PSP of the BCB API Pix v2 calls back (the registered `webhookUrl` plus the
 * `/pix` the standard appends). Public (the PSP has no API key); the body is only a hint, so it
 * answers 200 with no body at once and confirmation happens in jobs
 * (src/domain/pix-provider/callbacks.ts).
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps";
import { acceptPixCallback } from "../../../domain/pix-provider/callbacks";
import { BODY_ERRORS, op } from "../../openapi";
import { Str, Type } from "../../schemas";

/** One received Pix of the callback (OpenAPI `Pix`): the fields Cofre reads; others are kept out of the way, not refused. */
const CallbackPix = Type.Object(
  {
    endToEndId: Str({ minLength: 1, maxLength: 64 }),
    txid: Type.Optional(Str({ maxLength: 64 })),
    valor: Type.Optional(Str({ maxLength: 32 })),
    horario: Type.Optional(Str({ maxLength: 64 })),
  },
  { additionalProperties: true },
);
const CallbackBody = Type.Object({ pix: Type.Array(CallbackPix, { maxItems: 1000 }) }, { additionalProperties: true });

export function providerWebhookRoutes(deps: Deps) {
  return new Elysia().post(
    "/v1/provider-webhooks/pix/:connection_id/pix",
    async ({ params, body }) => {
      await acceptPixCallback(deps, params.connection_id, body);
      return new Response(null, { status: 200 });
    },
    {
      params: t.Object({ connection_id: t.String() }),
      body: CallbackBody,
      detail: op({
        tags: ["provider-webhooks"],
        security: "none",
        summary: "A PSP's Pix callback (BCB API Pix v2 `{pix: [...]}`): queued for confirmation, 200 at once",
        description:
          "Called by the PSP of a Pix provider connection at `{webhook_url}/pix`. The body is only a hint: each entry whose `txid` is a live charge of the connection's account is confirmed with Cofre's own credentials (`GET /pix/{endToEndId}`, else `GET /cob/{txid}`) before anything changes; entries that match nothing are ignored. A repeated callback pays once (idempotent by end-to-end id).",
        ok: { 200: { empty: "Received; confirmation is queued." } },
        errors: [...BODY_ERRORS, 404],
        requestExample: { pix: [{ endToEndId: "E12345678202611201200abcdefghijk", txid: "Cofre0000000000000000000001", valor: "10.05", horario: "2026-11-20T12:03:00Z" }] },
      }),
    },
  );
}
