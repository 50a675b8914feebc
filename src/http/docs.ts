/**
 * GET /docs (API reference UI), GET /docs/json (OpenAPI 3 generated from the route schemas, so the
 * reference cannot drift from the code) and GET /docs/assets/scalar.js (the vendored Scalar bundle).
 *
 * The document comes from `toOpenAPISchema` of @elysiajs/openapi over every mounted route. Its
 * plugin is not used as is: it drops request bodies of routes with a custom parse hook (our global
 * JSON parser in src/app.ts) and loads the UI from a CDN. The UI script is imported as a file, so
 * `bun build --compile` embeds it in `dist/cofre` and `/docs` works offline with nothing beside the
 * executable (extensions.md "Health and reference"); Scalar's web fonts are turned off too.
 *
 * Route authors: give every route `detail: {tags, summary}` and, for authenticated routes,
 * `security: [{apikey: []}]` (or `bearer` / `operator`); body, query, params and response schemas
 * appear in the document by themselves. `detail: {hide: true}` leaves a route out.
 */
import { Elysia } from "elysia";
import { toOpenAPISchema } from "@elysiajs/openapi";
// @ts-ignore: a plain JS file imported as a file path (Bun `type: "file"`), so it has no types.
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import type { Deps } from "../deps";
import { operatorRoutes } from "./routes/operator";
import { clockTestHelperRoutes } from "./routes/test-helpers/clock";
import { checkoutPath } from "./routes/public";

/** Where the vendored Scalar standalone bundle is served. */
export const SCALAR_ASSET_PATH = "/docs/assets/scalar.js";
export const OPENAPI_PATH = "/docs/json";

/** Fixed parts of the document: info, tags, security schemes. */
export const DOCUMENTATION = {
  info: {
    title: "Cofre API",
    version: "2026-11-01",
    description:
      "Self-hosted payment gateway: Pix charges, payments, refunds, wallets, webhooks, API keys, MED. " +
      "Errors use one envelope `{error: {type, code, message, param?, details?}, request_id}`; every " +
      "response carries `X-Request-Id`; authenticated responses carry `X-RateLimit-Limit-Minute` and " +
      "`X-RateLimit-Remaining-Minute`.",
  },
  tags: [
    { name: "health", description: "Liveness and readiness (no authentication)" },
    { name: "ping", description: "Authenticated no-op: checks an API key and shows its mode" },
  ],
  components: {
    securitySchemes: {
      apikey: { type: "apiKey", in: "header", name: "apikey", description: "ak_test_... or ak_live_..." },
      bearer: { type: "http", scheme: "bearer", description: "Dashboard access token from POST /v1/auth/login" },
      operator: { type: "http", scheme: "bearer", description: "COFRE_OPERATOR_TOKEN" },
    },
  },
} as const;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Cofre API reference</title>
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <script id="api-reference" data-configuration='${JSON.stringify({
      url: OPENAPI_PATH,
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
      // Hosted Scalar services (AI agent, MCP generator, developer toolbar) need the internet.
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
    })}'></script>
    <script src="${SCALAR_ASSET_PATH}"></script>
  </body>
</html>
`;

type RouteLike = { method: string; path: string; hooks?: Record<string, unknown> & { parse?: { fn: unknown }[] } };

/**
 * The routes as the generator should see them: function parse hooks (our global JSON parser)
 * are replaced by the named "json" parser, so request bodies are documented as application/json.
 */
function documentedRoutes(routes: RouteLike[]): RouteLike[] {
  return routes.map((r) => {
    if (!r.hooks?.body) return r;
    const named = (r.hooks.parse ?? []).filter((p) => typeof p.fn !== "function");
    return { ...r, hooks: { ...r.hooks, parse: named.length ? named : [{ fn: "json" }] } };
  });
}

/**
 * Routes that exist only when configured (operator API: COFRE_OPERATOR_TOKEN; clock helper:
 * COFRE_TEST_CLOCK=1) but must still appear in the reference (extensions.md "Health and
 * reference": every route). Built on a copy of the config with them switched on and never
 * mounted, so on the server they still answer 404.
 */
function switchedOffRoutes(deps: Deps): RouteLike[] {
  const shadow: Deps = { ...deps, config: { ...deps.config, operatorToken: deps.config.operatorToken || "docs-only", testClock: true } };
  const out: RouteLike[] = [];
  if (!deps.config.operatorToken) out.push(...(operatorRoutes(shadow).routes as unknown as RouteLike[]));
  if (!deps.config.testClock) out.push(...(clockTestHelperRoutes(shadow).routes as unknown as RouteLike[]));
  return out;
}

/** Operations that take no credential (extensions.md "Public pages", health, login, event catalog). */
function isPublicOperation(path: string, checkoutPrefix: string): boolean {
  if (["/healthz", "/readyz", "/v1/auth/login", "/v1/webhooks/event-catalog"].includes(path)) return true;
  return [`${checkoutPrefix}/`, "/v1/qr/", "/v1/pix/loc/", "/v1/boletos/", "/v1/uploads/"].some((p) => path.startsWith(p));
}

/**
 * Gives every operation an explicit `security`: routes that declare none are `apikey` routes
 * (interface.md "Authentication" 1), except the public ones, which get `[]`.
 */
function nameSecurity(paths: Record<string, Record<string, { security?: unknown }>>, checkoutPrefix: string): void {
  for (const [path, ops] of Object.entries(paths))
    for (const op of Object.values(ops))
      if (op && typeof op === "object" && !Array.isArray(op.security)) op.security = isPublicOperation(path, checkoutPrefix) ? [] : [{ apikey: [] }];
}

export function docsPlugin(deps: Deps) {
  const extra = switchedOffRoutes(deps);
  let cached: { routes: number; doc: unknown } | null = null;
  const plugin = new Elysia({ name: "cofre-docs" });
  const build = (): unknown => {
    const routes = (plugin as unknown as { getGlobalRoutes(): RouteLike[] }).getGlobalRoutes();
    if (cached?.routes === routes.length) return cached.doc;
    const view = {
      getGlobalRoutes: () => documentedRoutes([...routes, ...extra]),
      getGlobalDefinitions: () => (plugin as unknown as { getGlobalDefinitions?: () => unknown }).getGlobalDefinitions?.(),
    };
    const { paths, components } = toOpenAPISchema(view as never);
    nameSecurity(paths as never, checkoutPath(deps.config.checkoutUrlBase));
    const doc = {
      openapi: "3.1.0",
      info: DOCUMENTATION.info,
      tags: DOCUMENTATION.tags,
      paths,
      components: { ...DOCUMENTATION.components, schemas: components.schemas },
    };
    cached = { routes: routes.length, doc };
    return doc;
  };
  return plugin
    .get(OPENAPI_PATH, () => build(), { detail: { hide: true } })
    .get("/docs", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), { detail: { hide: true } })
    .get(
      SCALAR_ASSET_PATH,
      () =>
        new Response(Bun.file(scalarBundle), {
          headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
      { detail: { hide: true } },
    );
}
