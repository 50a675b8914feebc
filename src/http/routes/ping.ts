/** GET /v1/ping: an authenticated no-op. Checks the `apikey` and tells the caller its mode. */
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { apiKeyAuth } from "../plugins/api-key-auth";

export function pingRoutes(deps: Deps) {
  return new Elysia().use(apiKeyAuth(deps)).get("/v1/ping", ({ auth }) => ({ object: "ping" as const, mode: auth.mode }), {
    response: { 200: t.Object({ object: t.Literal("ping"), mode: t.Union([t.Literal("test"), t.Literal("live")]) }) },
    detail: {
      tags: ["ping"],
      summary: "Check an API key",
      description: "Answers `{object: \"ping\", mode}` for a valid key (401 otherwise). Carries the rate-limit headers.",
      security: [{ apikey: [] }],
    },
  });
}
