/**
 * The one way a PDF file is answered (extensions.md "Receipts as files"): bytes, an attachment named `<id>.pdf`, never
 * cached.
 */

/** `bytes` as `application/pdf`, `Content-Disposition: attachment; filename="<id>.pdf"`, `Cache-Control: no-store`. */
export function pdfResponse(bytes: Uint8Array, id: string): Response {
  return new Response(Buffer.from(bytes), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${id}.pdf"`,
      "cache-control": "no-store",
    },
  });
}
