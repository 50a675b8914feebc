/**
 * Unauthenticated pages and files (extensions.md "Public pages"; raw ids are unguessable):
 * - `GET {checkout_url_base}/<raw_id>` hosted checkout (HTML; unknown id -> 404 page),
 *   `GET .../<raw_id>/status` (JSON poll), `POST .../<raw_id>/simulate` (sandbox rows only);
 * - `GET {checkout_url_base}/assets/<file>` the page's stylesheet and script (./assets.ts);
 * - `GET /v1/qr/<raw_id>.png` the QR of the BR Code (cacheable, ETag);
 * - `GET /v1/pix/loc/<txid>` the BR Code location: the JWS-signed CobPayload; `GET /v1/pix/jwks.json`.
 */
import { Elysia } from "elysia";
import { htmlResponse, pageCsp } from "../../html";
import { checkoutAssetRoutes } from "./assets";
import type { Deps } from "../../../domain/deps";
import { chargeByRawId, chargeByTxid, checkoutMerchantOf } from "../../../domain/charges/public";
import { RECEIPT_STATUSES, receiptPdf } from "../../../domain/payments/receipt";
import { faviconIco } from "../../../web/favicon";
import { locationJwks, signedCobPayload, JWKS_PATH, PIX_LOCATION_PATH } from "../../../domain/charges/location";
import { CHARGE_STATUSES, PUBLIC_STATUS, type TransactionStatus } from "../../../domain/charges/model";
import { simulatePayment } from "../../../domain/charges/sandbox";
import { iso } from "../../../lib/clock";
import { qrPng } from "../../../pix/qr";
import { checkoutAssetLinks, checkoutLinks } from "../../../web/checkout/links";
import { renderCheckoutPage, renderNotFoundPage } from "../../../web/checkout/page";
import { notFound } from "../../errors";
import { DateTime, Nullable, OneOf, Type, View } from "../../../lib/view-schema";
import { BODY_ERRORS, op } from "../../openapi";
import { pdfResponse } from "../../pdf";

/** GET {checkout}/<raw_id>/status: what the checkout page polls. */
const CheckoutStatusSchema = View("CheckoutStatus", {
  status: OneOf(CHARGE_STATUSES),
  expires_at: Nullable(DateTime()),
});
/** POST {checkout}/<raw_id>/simulate. */
const SimulatedSchema = View("CheckoutSimulated", { status: OneOf(CHARGE_STATUSES) });
/** GET /v1/pix/jwks.json: the public keys (RFC 7517) that verify the location JWS. */
const JwksSchema = View("Jwks", {
  keys: Type.Array(
    Type.Record(Type.String(), Type.Unknown(), {
      examples: [{ kty: "EC", crv: "P-256", x: "...", y: "...", kid: "...", alg: "ES256", use: "sig" }],
    }),
  ),
});
const HTML = (description: string) => ({ content: "text/html", description });

const RAW_ID = /^[0-9a-f]{32}$/;

/** Path of `{checkout_url_base}` on this server (e.g. `/c`). */
export function checkoutPath(checkoutUrlBase: string): string {
  try {
    return new URL(checkoutUrlBase).pathname.replace(/\/+$/, "");
  } catch {
    return "/c";
  }
}

/**
 * The checkout's CSP: no inline script or style at all (the page loads its own static files),
 * every fetch and image same-origin (the page's URLs are relative, so it works through any host:
 * src/web/checkout/links.ts), never framed.
 */
const CHECKOUT_CSP = pageCsp([
  "default-src 'none'",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
]);

/** A checkout page (or its not-found page) with the page security headers (src/http/html.ts). */
function html(body: string, status: number): Response {
  return htmlResponse(body, { status, csp: CHECKOUT_CSP });
}

export function publicRoutes(deps: Deps) {
  const base = checkoutPath(deps.config.checkoutUrlBase);
  const rowOf = async (rawId: string) => (RAW_ID.test(rawId) ? await chargeByRawId(deps, rawId) : undefined);
  const tags = ["public"];

  return new Elysia()
    .use(checkoutAssetRoutes(base))
    .get(
      `${base}/:raw_id`,
      async ({ params }) => {
        const row = await rowOf(params.raw_id);
        if (!row) return html(renderNotFoundPage(checkoutAssetLinks()), 404);
        const merchant = await checkoutMerchantOf(deps, row.accountId);
        const page = renderCheckoutPage({
          row,
          sandbox: !row.livemode,
          nowMs: deps.clock.nowMs(),
          merchantName: merchant.name,
          merchantTaxId: merchant.taxIdLine,
          links: checkoutLinks(base, row.id),
        });
        return html(page, 200);
      },
      {
        detail: op({
          tags,
          summary: "Hosted checkout page (HTML)",
          security: "none",
          ok: {
            200: HTML("The checkout page."),
            404: HTML("Not-found page for an unknown id (HTML, not the JSON envelope)."),
          },
          errors: [],
        }),
      },
    )
    .get(
      `${base}/:raw_id/comprovante.pdf`,
      async ({ params }) => {
        const row = await rowOf(params.raw_id);
        if (!row || !RECEIPT_STATUSES.has(row.status)) throw notFound("receipt");
        return pdfResponse(await receiptPdf(deps, row), row.id);
      },
      {
        detail: op({
          tags,
          summary: 'The receipt PDF of a checkout with a final outcome (the paid screen\'s "Baixar comprovante")',
          description:
            "The same PDF as `GET /v1/payments/{id}/receipt` with `Accept: application/pdf`; the capability is the unguessable raw id. 404 while the outcome is not final.",
          security: "none",
          ok: { 200: { content: "application/pdf", description: "The receipt, as an attachment named `<id>.pdf`." } },
          errors: [404],
        }),
      },
    )
    .get(
      "/favicon.ico",
      () =>
        new Response(new Uint8Array(faviconIco()), {
          headers: { "content-type": "image/x-icon", "cache-control": "public, max-age=86400" },
        }),
      {
        detail: op({
          tags,
          summary: "Cofre's favicon",
          security: "none",
          ok: { 200: { content: "image/x-icon", description: "A 32x32 icon." } },
          errors: [],
        }),
      },
    )
    .get(
      `${base}/:raw_id/status`,
      async ({ params, set }) => {
        const row = await rowOf(params.raw_id);
        if (!row) throw notFound("charge");
        set.headers["cache-control"] = "no-store";
        return {
          status: PUBLIC_STATUS[row.status as TransactionStatus],
          expires_at: row.expiresAt === null ? null : iso(row.expiresAt),
        };
      },
      {
        detail: op({
          tags,
          summary: "Checkout status poll (JSON)",
          security: "none",
          ok: { 200: CheckoutStatusSchema },
          errors: [404],
        }),
      },
    )
    .post(
      `${base}/:raw_id/simulate`,
      async ({ params }) => {
        const row = await rowOf(params.raw_id);
        if (!row || row.livemode) throw notFound("charge");
        const result = await simulatePayment(deps, row, {});
        return { status: PUBLIC_STATUS[result.row.status as TransactionStatus] };
      },
      {
        detail: op({
          tags,
          summary: "Sandbox only: the checkout's Simulate payment button",
          security: "none",
          ok: { 200: SimulatedSchema },
          errors: [...BODY_ERRORS, 404],
        }),
      },
    )
    .get(
      "/v1/qr/:file",
      async ({ params, request }) => {
        const m = /^([0-9a-f]{32})\.png$/.exec(params.file);
        const row = m ? await chargeByRawId(deps, m[1]!) : undefined;
        if (!row?.pixBrCode) throw notFound("QR code");
        const { png, etag } = await qrPng(row.pixBrCode);
        const headers = { etag, "cache-control": "public, max-age=86400, immutable", "content-type": "image/png" };
        if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
        return new Response(png as Uint8Array<ArrayBuffer>, { status: 200, headers });
      },
      {
        detail: op({
          tags,
          summary: "QR code PNG of a charge's BR Code",
          description: "Cacheable (ETag); `If-None-Match` with the ETag -> 304.",
          security: "none",
          ok: {
            200: { content: "image/png", description: "The QR code." },
            304: { empty: "Not modified (If-None-Match matched the ETag)." },
          },
          errors: [404],
        }),
      },
    )
    .get(
      `${PIX_LOCATION_PATH}:txid`,
      async ({ params }) => {
        const row = /^[a-zA-Z0-9]{26,35}$/.test(params.txid) ? await chargeByTxid(deps, params.txid) : undefined;
        if (!row) throw notFound("location");
        return new Response(await signedCobPayload(deps, row), {
          headers: { "content-type": "application/jose", "cache-control": "no-store" },
        });
      },
      {
        detail: op({
          tags,
          summary: "Pix location: JWS-signed CobPayload (BCB API Pix)",
          description:
            "A compact JWS (verify with /v1/pix/jwks.json) whose payload is the BCB API Pix CobPayload of the charge.",
          security: "none",
          ok: { 200: { content: "application/jose", description: "Compact JWS.", schema: { type: "string" } } },
          errors: [404],
        }),
      },
    )
    .get(JWKS_PATH, async () => locationJwks(deps), {
      detail: op({
        tags,
        summary: "Public keys of the Pix location signatures",
        security: "none",
        ok: { 200: JwksSchema },
        errors: [],
      }),
    });
}
