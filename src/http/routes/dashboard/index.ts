/**
 * GET /dashboard (the merchant dashboard's page) and GET /dashboard/assets/:name (its built
 * files; src/web/dashboard/assets.ts). Not API operations: hidden from the OpenAPI document.
 * Strict CSP like the checkout's: only our own files, no inline script or style, never framed.
 * The page talks to the JSON API only (extensions.md "Merchant dashboard").
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { dashboardBuild } from "../../../web/dashboard/assets";
import { notFound } from "../../errors";
import { HTML_SECURITY_HEADERS, htmlResponse, pageCsp } from "../../html";

/** The dashboard's Content-Security-Policy (no third-party origin, no inline code, not frameable). */
export const DASHBOARD_CSP = pageCsp([
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
]);

/** The page's headers, also on its built files (src/http/html.ts). */
const SECURITY_HEADERS = { "content-security-policy": DASHBOARD_CSP, ...HTML_SECURITY_HEADERS };

function shell(scripts: string[], styles: string[]): string {
  const css = styles.map((s) => `<link rel="stylesheet" href="/dashboard/assets/${s}">`).join("");
  const js = scripts.map((s) => `<script type="module" src="/dashboard/assets/${s}"></script>`).join("");
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Cofre</title><link rel="icon" href="data:,">${css}</head><body><div id="app"></div>${js}</body></html>`;
}

export function dashboardRoutes(_deps: Deps) {
  return new Elysia()
    .get(
      "/dashboard",
      async () => {
        const b = await dashboardBuild();
        return htmlResponse(shell(b.scripts, b.styles), { csp: DASHBOARD_CSP });
      },
      { detail: { hide: true } },
    )
    .get(
      "/dashboard/assets/:name",
      async ({ params }) => {
        const a = (await dashboardBuild()).assets.get(params.name);
        if (!a) throw notFound("file");
        // Names carry a content hash: cache for a year.
        return new Response(a.bytes as Uint8Array<ArrayBuffer>, {
          headers: {
            "content-type": a.type,
            "cache-control": "public, max-age=31536000, immutable",
            ...SECURITY_HEADERS,
          },
        });
      },
      { params: t.Object({ name: t.String() }), detail: { hide: true } },
    );
}
