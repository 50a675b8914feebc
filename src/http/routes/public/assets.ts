/**
 * `GET {checkout_path}/assets/<file>`: the checkout page's stylesheet and script
 * (src/web/checkout/assets.ts). Content-addressed names, so cached for a year as immutable;
 * an unknown name is 404. Not an API operation: hidden from the OpenAPI document.
 */
import { Elysia } from "elysia";
import { checkoutAsset } from "../../../web/checkout/assets";
import { notFound } from "../../errors";

export function checkoutAssetRoutes(checkoutPath: string) {
  return new Elysia().get(
    `${checkoutPath}/assets/:file`,
    ({ params, request }) => {
      const a = checkoutAsset(params.file);
      if (!a) throw notFound("asset");
      const headers = {
        "content-type": a.contentType,
        "cache-control": "public, max-age=31536000, immutable",
        etag: a.etag,
        "x-content-type-options": "nosniff",
      };
      if (request.headers.get("if-none-match") === a.etag) return new Response(null, { status: 304, headers });
      return new Response(a.body, { headers });
    },
    { detail: { hide: true } },
  );
}
