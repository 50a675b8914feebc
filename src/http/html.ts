/**
 * Every HTML page Cofre serves (checkout, /docs, /dashboard, their not-found pages) is answered by
 * `htmlResponse`, the one place that sets the page security headers (issue 30 §3): a
 * Content-Security-Policy that always ends with `frame-ancestors 'none'` (never framed),
 * `X-Frame-Options: DENY` (the same for browsers without CSP 2), `X-Content-Type-Options: nosniff`
 * and `Referrer-Policy: no-referrer` (page URLs carry unguessable ids). test/foundation/html-headers.test.ts
 * walks every GET route of the app and checks each HTML answer carries them.
 */

/** Headers every HTML answer carries besides its CSP. */
export const HTML_SECURITY_HEADERS = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

/** The CSP of a page with no policy of its own: nothing loads, nothing frames it. */
export const DEFAULT_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * `directives` joined as a CSP with `frame-ancestors 'none'` added (a directive of the same name
 * given by the caller is replaced), so no page can be framed whatever its own policy says.
 */
export function pageCsp(directives: readonly string[]): string {
  return [...directives.filter((d) => !d.startsWith("frame-ancestors")), "frame-ancestors 'none'"].join("; ");
}

/**
 * An HTML answer: `body` with status `status` (200), CSP `csp` (built with pageCsp; default
 * DEFAULT_PAGE_CSP), the HTML_SECURITY_HEADERS, `cache-control` (default `no-store`) and `headers`.
 */
export function htmlResponse(
  body: string,
  opts: { status?: number; csp?: string; cacheControl?: string; headers?: Record<string, string> } = {},
): Response {
  return new Response(body, {
    status: opts.status ?? 200,
    headers: {
      ...opts.headers,
      "content-type": "text/html; charset=utf-8",
      "cache-control": opts.cacheControl ?? "no-store",
      "content-security-policy": opts.csp ?? pageCsp([DEFAULT_PAGE_CSP]),
      ...HTML_SECURITY_HEADERS,
    },
  });
}
