/** GET /v1/ping: an authenticated no-op. Checks the `apikey` and tells the caller its mode. */
import { Elysia } from "elysia";
import type { Static } from "@sinclair/typebox";
import type { Deps } from "../../domain/deps";
import { apiKeyAuth } from "../plugins/api-key-auth";
import { AUTH_ERRORS, op } from "../openapi";
import { Type, View } from "../../lib/view-schema";

const PingSchema = View("Ping", {
  object: Type.Literal("ping"),
  mode: Type.Union([Type.Literal("test"), Type.Literal("live")]),
});

export function pingRoutes(deps: Deps) {
  // Documented like every route (doc only); no runtime response validation.
  return new Elysia()
    .use(apiKeyAuth(deps))
    .get("/v1/ping", ({ auth }): Static<typeof PingSchema> => ({ object: "ping" as const, mode: auth.mode }), {
      detail: op({
        tags: ["ping"],
        summary: "Check an API key",
        description:
          'Answers `{object: "ping", mode}` for a valid key (401 otherwise). Carries the rate-limit headers.',
        security: "apikey",
        ok: { 200: PingSchema },
        errors: [...AUTH_ERRORS.apikey],
      }),
    });
}
