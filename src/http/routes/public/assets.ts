/**
 * `GET {checkout_path}/assets/<file>`: the checkout page's stylesheet and script
 * (src/web/checkout/assets.ts). Content-addressed names, so cached for a year as immutable;
 * an unknown name is 404 (JSON envelope). Listed in the OpenAPI document with the public pages.
 */
import { Elysia } from "elysia";
import { checkoutAsset } from "../../../web/checkout/assets";
import { notFound } from "../../errors";
import { op } from "../../openapi";

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
    {
      detail: op({
        tags: ["public"],
        summary: "The checkout page's stylesheet and script (content-addressed, immutable)",
        description:
          "`checkout-<hash>.css` and `checkout-<hash>.js`, named by the hash of their content and cached for a year. `If-None-Match` with the current ETag answers 304. An unknown name is 404.",
        security: "none",
        ok: {
          200: [
            { content: "text/css", description: "The stylesheet." },
            { content: "text/javascript", description: "The script." },
          ],
          304: { empty: "Not modified (the ETag matched)." },
        },
        errors: [404],
      }),
    },
  );
}
