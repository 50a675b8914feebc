/**
 * GET /docs (API reference UI), GET /docs/json (OpenAPI 3 generated from the route schemas, so the
 * reference cannot drift from the code) and GET /docs/assets/scalar.js (the vendored Scalar bundle).
 *
 * The UI script is imported as a file, so `bun build --compile` embeds it in `dist/cofre` and
 * `/docs` works offline and with nothing beside the executable (extensions.md "Health and
 * reference"). Scalar's default web fonts (fonts.scalar.com) are turned off for the same reason.
 */
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import type { Deps } from "../deps";

/** Where the vendored Scalar standalone bundle is served. */
export const SCALAR_ASSET_PATH = "/docs/assets/scalar.js";

export function docsPlugin(deps: Deps) {
  void deps;
  return new Elysia()
    .get(
      SCALAR_ASSET_PATH,
      () =>
        new Response(Bun.file(scalarBundle), {
          headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
      { detail: { hide: true } },
    )
    .use(
      openapi({
        path: "/docs",
        specPath: "/docs/json",
        scalar: {
          cdn: SCALAR_ASSET_PATH,
          url: "/docs/json",
          withDefaultFonts: false,
          hideClientButton: true,
        } as never,
        documentation: {
          info: {
            title: "Cofre API",
            version: "2026-11-01",
            description: "Self-hosted payment gateway: Pix charges, payments, refunds, wallets, webhooks, API keys, MED.",
          },
          tags: [
            { name: "health", description: "Liveness, readiness and this reference (no authentication)" },
            { name: "ping", description: "Authenticated no-op: checks an API key and shows its mode" },
          ],
          components: {
            securitySchemes: {
              apikey: { type: "apiKey", in: "header", name: "apikey", description: "ak_test_... or ak_live_..." },
              bearer: { type: "http", scheme: "bearer", description: "Dashboard access token from POST /v1/auth/login" },
              operator: { type: "http", scheme: "bearer", description: "COFRE_OPERATOR_TOKEN" },
            },
          },
        },
      }),
    );
}
