/** GET /docs (API reference UI) and GET /docs/json (OpenAPI 3 generated from the route schemas). */
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import type { Deps } from "../deps";

export function docsPlugin(deps: Deps) {
  void deps;
  return new Elysia().use(
    openapi({
      path: "/docs",
      specPath: "/docs/json",
      documentation: {
        info: {
          title: "Cofre API",
          version: "2026-11-01",
          description: "Self-hosted payment gateway: Pix charges, payments, refunds, wallets, webhooks, API keys, MED.",
        },
        components: {
          securitySchemes: {
            apikey: { type: "apiKey", in: "header", name: "apikey" },
            bearer: { type: "http", scheme: "bearer" },
            operator: { type: "http", scheme: "bearer", description: "COFRE_OPERATOR_TOKEN" },
          },
        },
      },
    }),
  );
}
