/**
 * Signed evidence URLs served by Cofre itself (interface.md step 2 of the evidence upload):
 * `PUT /v1/uploads/med-evidence/{id}?expires&signature` stores the raw bytes (no JSON parsing
 * under `/v1/uploads/`, bodies up to 10 MB); a request carrying `apikey` or `Authorization` is
 * refused with 400. `GET .../{id}/view?expires&signature` serves a confirmed file (5-minute link).
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { ApiError } from "../../errors";
import { EVIDENCE_URL_PATH, receiveUpload, viewEvidence } from "../../../domain/med/evidence";
import { UploadReceiptSchema } from "../../../domain/med/views";
import { op } from "../../openapi";

const signed = [
  { name: "expires", description: "From the signed URL (unix seconds).", required: true },
  { name: "signature", description: "From the signed URL.", required: true },
];

export function evidenceUrlRoutes(deps: Deps) {
  return new Elysia()
    .put(
      `${EVIDENCE_URL_PATH}/:id`,
      ({ params, request, body }) => {
        for (const h of ["apikey", "authorization"])
          if (request.headers.has(h))
            throw new ApiError(
              "invalid_request",
              `Do not send ${h} to an upload URL; the signature in the URL is the credential.`,
              { param: h },
            );
        const url = new URL(request.url);
        const bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : new Uint8Array(0);
        return receiveUpload(deps, {
          evidenceId: params.id,
          expires: url.searchParams.get("expires"),
          signature: url.searchParams.get("signature"),
          contentType: request.headers.get("content-type"),
          bytes,
        });
      },
      {
        parse: "arrayBuffer",
        detail: op({
          tags: ["med"],
          summary: "Evidence step 2: PUT the file bytes to the signed upload_url",
          description:
            "Raw bytes (not JSON) with the Content-Type and Content-Length of `upload_headers`; up to 10 MB. No apikey/Authorization (400): the URL's signature is the credential.",
          security: "none",
          ok: { 200: UploadReceiptSchema },
          errors: [400, 403, 408, 409, 413, 415, 503],
          query: signed,
        }),
      },
    )
    .get(
      `${EVIDENCE_URL_PATH}/:id/view`,
      async ({ params, request }) => {
        const url = new URL(request.url);
        const file = await viewEvidence(
          deps,
          params.id,
          url.searchParams.get("expires"),
          url.searchParams.get("signature"),
        );
        return new Response(new Uint8Array(file.bytes), {
          headers: {
            "content-type": file.mimeType,
            "content-length": String(file.bytes.byteLength),
            "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
            "x-content-type-options": "nosniff",
            "cache-control": "private, no-store",
            ...(file.sha256 ? { "x-content-sha256": file.sha256 } : {}),
          },
        });
      },
      {
        detail: op({
          tags: ["med"],
          summary: "Download a confirmed evidence file (signed view_url, 5 minutes)",
          security: "none",
          ok: {
            200: {
              content: "application/octet-stream",
              description:
                "The file, with its own Content-Type (image/png, image/jpeg, image/webp, image/gif or application/pdf).",
            },
          },
          errors: [403, 404],
          query: signed,
        }),
      },
    );
}
