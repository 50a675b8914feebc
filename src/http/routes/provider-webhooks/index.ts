/**
 * `POST /v1/provider-webhooks/pix/{connection_id}/pix` (extensions.md "Live Pix over the BCB API
 * Pix (v2)"): where a PSP of the BCB API Pix v2 calls back (the registered `webhookUrl` plus the
 * `/pix` the standard appends). Public (the PSP has no API key); the body is only a hint, so it
 * answers 200 with no body at once and confirmation happens in jobs
 * (src/domain/pix-provider/callbacks.ts).
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { acceptPixCallback, admitPixCallback, type AdmittedCallback } from "../../../domain/pix-provider/callbacks";
import { BODY_ERRORS, op } from "../../openapi";
import { Str, Type } from "../../schemas";

/**
 * One received Pix of the callback (OpenAPI `Pix`): the fields Cofre reads; others are kept out of the way, not
 * refused.
 */
const CallbackPix = Type.Object(
  {
    endToEndId: Str({ minLength: 1, maxLength: 64 }),
    txid: Type.Optional(Str({ maxLength: 64 })),
    valor: Type.Optional(Str({ maxLength: 32 })),
    horario: Type.Optional(Str({ maxLength: 64 })),
  },
  { additionalProperties: true },
);
// The entry cap (413) is the service's (MAX_CALLBACK_ENTRIES); validating a longer list first costs microseconds.
const CallbackBody = Type.Object({ pix: Type.Array(CallbackPix, { maxItems: 1000 }) }, { additionalProperties: true });

/** Path prefix of the callbacks; the connection id is the next segment. */
const PREFIX = "/v1/provider-webhooks/pix/";
/** Callbacks admitted before their body was read (admitBeforeBody), by request. */
const admitted = new WeakMap<Request, AdmittedCallback>();

/**
 * Called by the app's body parser (src/app.ts onParse) before it reads a body at `path`: a
 * callback is admitted (its connection exists, within its rate) before its body costs anything,
 * so an unknown connection (404) or a flood past the rate (429) is refused unread (issue 30 §1).
 */
export async function admitBeforeBody(deps: Deps, request: Request, path: string): Promise<void> {
  if (!path.startsWith(PREFIX)) return;
  const [connectionId, rest] = path.slice(PREFIX.length).split("/", 2);
  if (!connectionId || rest !== "pix" || request.method !== "POST") return;
  admitted.set(request, await admitPixCallback(deps, decodeURIComponent(connectionId)));
}

export function providerWebhookRoutes(deps: Deps) {
  return new Elysia().post(
    "/v1/provider-webhooks/pix/:connection_id/pix",
    async ({ params, body, request }) => {
      await acceptPixCallback(deps, admitted.get(request) ?? params.connection_id, body);
      return new Response(null, { status: 200 });
    },
    {
      // The bare array some PSPs send (`[{endToEndId, txid}]`, README "Live Pix") is the standard's list.
      transform(ctx) {
        if (Array.isArray(ctx.body)) (ctx as { body: unknown }).body = { pix: ctx.body };
      },
      params: t.Object({ connection_id: t.String() }),
      body: CallbackBody,
      detail: op({
        tags: ["provider-webhooks"],
        security: "none",
        summary:
          "A PSP's Pix callback (BCB API Pix v2 `{pix: [...]}`, or the bare array): queued for confirmation, 200 at once",
        description:
          "Called by the PSP of a Pix provider connection at `{webhook_url}/pix`. The body is only a hint: each entry whose `txid` is a live charge of the connection's account is confirmed with Cofre's own credentials (`GET /pix/{endToEndId}`, else `GET /cob/{txid}`) before anything changes; entries that match nothing are ignored (all of them matched by one indexed read). A repeated callback pays once (idempotent by end-to-end id). The bare array `[{endToEndId, txid, ...}]` some PSPs send is accepted as the `pix` list. Bounded: at most 100 entries and 64 KiB (else 413 `payload_too_large`), at most 50 callbacks a second per connection, bursts of 50 (else 429 `rate_limited` with `Retry-After`; per instance).",
        ok: { 200: { empty: "Received; confirmation is queued." } },
        errors: [...BODY_ERRORS, 404, 429],
        requestExample: {
          pix: [
            {
              endToEndId: "E12345678202611201200abcdefghijk",
              txid: "Cofre0000000000000000000001",
              valor: "10.05",
              horario: "2026-11-20T12:03:00Z",
            },
          ],
        },
      }),
    },
  );
}
