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
 * Route authors: give every route `detail: op({...})` (src/http/openapi.ts): security, success
 * and error responses (schemas from the view schemas beside the serializers), header and query
 * parameters, a request example. Body and path schemas appear by themselves. Response schemas
 * with a `title` become `components.schemas`. `detail: {hide: true}` leaves a route out (only the
 * reference's own routes do). test/support/harness.ts checks every answer of the suite against
 * this document.
 */
import { Elysia } from "elysia";
import { htmlResponse, pageCsp } from "./html";
import { toOpenAPISchema } from "@elysiajs/openapi";
// @ts-expect-error: a plain JS file imported as a file path (Bun `type: "file"`), so it has no types.
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import type { SchedulerDeps } from "../jobs/deps";
import { operatorRoutes } from "./routes/operator";
import { clockTestHelperRoutes } from "./routes/test-helpers/clock";
import { checkoutPath } from "./routes/public";
import { HEADER_COMPONENTS, PARAMETER_COMPONENTS } from "./openapi";
import { API_VERSION } from "../lib/api-version";

/** Where the vendored Scalar standalone bundle is served. */
export const SCALAR_ASSET_PATH = "/docs/assets/scalar.js";
export const OPENAPI_PATH = "/docs/json";

/** Fixed parts of the document: info, tags, security schemes, shared headers and parameters. */
export const DOCUMENTATION = {
  info: {
    title: "Cofre API",
    version: API_VERSION,
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
      session: {
        type: "apiKey",
        in: "cookie",
        name: "cofre_session",
        description:
          "Dashboard session cookie from POST /v1/auth/session, accepted where apikey or bearer is (used only when their header is absent). Writes also need `X-CSRF-Token` (the session's csrf_token); `Cofre-Mode: test|live` picks the mode (default test); the user's role is enforced (403 role_forbidden).",
      },
    },
    headers: HEADER_COMPONENTS,
    parameters: PARAMETER_COMPONENTS,
  },
} as const;

/**
 * The reference page's CSP: the vendored Scalar bundle and the OpenAPI JSON from this origin only;
 * Scalar injects its styles at run time (`'unsafe-inline'` for styles, never for scripts).
 */
const DOCS_CSP = pageCsp([
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
]);

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
function switchedOffRoutes(deps: SchedulerDeps): RouteLike[] {
  const shadow: SchedulerDeps = {
    ...deps,
    config: { ...deps.config, operatorToken: deps.config.operatorToken || "docs-only", testClock: true },
  };
  const out: RouteLike[] = [];
  if (!deps.config.operatorToken) out.push(...(operatorRoutes(shadow).routes as unknown as RouteLike[]));
  if (!deps.config.testClock) out.push(...(clockTestHelperRoutes(shadow).routes as unknown as RouteLike[]));
  return out;
}

/** Operations that take no credential (extensions.md "Public pages", health, login, event catalog). */
function isPublicOperation(path: string, checkoutPrefix: string): boolean {
  if (["/healthz", "/readyz", "/v1/auth/login", "/v1/webhooks/event-catalog"].includes(path)) return true;
  return [`${checkoutPrefix}/`, "/v1/qr/", "/v1/pix/loc/", "/v1/boletos/", "/v1/uploads/"].some((p) =>
    path.startsWith(p),
  );
}

/**
 * Gives every operation an explicit `security`: routes that declare none are `apikey` routes
 * (interface.md "Authentication" 1), except the public ones, which get `[]`.
 */
function nameSecurity(paths: Record<string, Record<string, { security?: unknown }>>, checkoutPrefix: string): void {
  for (const [path, ops] of Object.entries(paths))
    for (const op of Object.values(ops))
      if (op && typeof op === "object" && !Array.isArray(op.security))
        op.security = isPublicOperation(path, checkoutPrefix) ? [] : [{ apikey: [] }];
}

type Operation = Record<string, unknown> & {
  parameters?: object[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/**
 * Finishes the generated operations: merges the `x-cofre-parameters` (headers, hand-parsed query)
 * after the path parameters, puts `x-cofre-request-example` on the JSON request body, and moves
 * every titled response schema into `schemas` (replaced by a `$ref`). Throws when two different
 * schemas claim one title (a programming error the docs tests catch).
 */
function finishOperations(paths: Record<string, Record<string, Operation>>, schemas: Record<string, unknown>): void {
  const seen = new Map<string, string>();
  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist);
    if (!node || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node))
      out[k] = k === "examples" || k === "example" || k === "enum" || k === "const" ? v : hoist(v);
    const title = out.title;
    if (typeof title !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(title)) return out;
    const json = JSON.stringify(out);
    const prior = seen.get(title);
    if (prior !== undefined && prior !== json) throw new Error(`Two different response schemas are titled ${title}.`);
    seen.set(title, json);
    schemas[title] = out;
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const ops of Object.values(paths))
    for (const op of Object.values(ops)) {
      const extra = (op["x-cofre-parameters"] as object[] | undefined) ?? [];
      delete op["x-cofre-parameters"];
      if (extra.length) op.parameters = [...(op.parameters ?? []), ...extra];
      const example = op["x-cofre-request-example"];
      delete op["x-cofre-request-example"];
      const json = op.requestBody?.content?.["application/json"];
      if (example !== undefined && json) json.example = example;
      for (const r of Object.values(op.responses ?? {}))
        for (const media of Object.values(r.content ?? {})) if (media.schema) media.schema = hoist(media.schema);
    }
}

export function docsPlugin(deps: SchedulerDeps) {
  const extra = switchedOffRoutes(deps);
  let cached: { routes: number; doc: unknown } | null = null;
  const plugin = new Elysia({ name: "cofre-docs" });
  const build = (): unknown => {
    const routes = (plugin as unknown as { getGlobalRoutes(): RouteLike[] }).getGlobalRoutes();
    if (cached?.routes === routes.length) return cached.doc;
    const view = {
      getGlobalRoutes: () => documentedRoutes([...routes, ...extra]),
      getGlobalDefinitions: () =>
        (plugin as unknown as { getGlobalDefinitions?: () => unknown }).getGlobalDefinitions?.(),
    };
    // staticFile: false keeps paths with a dot (/v1/pix/jwks.json); the generator drops them by default.
    const generated = toOpenAPISchema(view as never, { staticFile: false });
    // A plain JSON copy: no TypeBox symbols, and the route objects are never mutated.
    const paths = JSON.parse(JSON.stringify(generated.paths)) as Record<string, Record<string, Operation>>;
    const schemas: Record<string, unknown> = { ...generated.components.schemas };
    finishOperations(paths, schemas);
    nameSecurity(paths as never, checkoutPath(deps.config.checkoutUrlBase));
    const doc = {
      openapi: "3.1.0",
      info: DOCUMENTATION.info,
      // The public URL (COFRE_PUBLIC_URL), so generated samples carry a full URL.
      servers: [{ url: deps.config.publicUrl }],
      tags: DOCUMENTATION.tags,
      paths,
      components: { ...DOCUMENTATION.components, schemas },
    };
    cached = { routes: routes.length, doc };
    return doc;
  };
  return plugin
    .get(OPENAPI_PATH, () => build(), { detail: { hide: true } })
    .get("/docs", () => htmlResponse(PAGE, { csp: DOCS_CSP }), { detail: { hide: true } })
    .get(
      SCALAR_ASSET_PATH,
      () =>
        new Response(Bun.file(scalarBundle), {
          headers: {
            "content-type": "application/javascript; charset=utf-8",
            "cache-control": "public, max-age=86400",
          },
        }),
      { detail: { hide: true } },
    );
}
