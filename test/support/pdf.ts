/**
 * Reading PDFs in tests with unpdf (Mozilla's PDF.js, pure JavaScript: no poppler needed).
 * `pdfText` gives each page's text as lines (items on one baseline joined, left to right, top to
 * bottom); `pdfImages` the embedded raster images as RGBA; `pdfQrCodes` the QR codes among them.
 */
import jsQR from "jsqr";
import { extractImages, getDocumentProxy } from "unpdf";

/** Text of every page, one line per baseline, items joined by a space; pages separated by a form feed. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    const lines = new Map<number, { x: number; s: string }[]>();
    for (const item of content.items) {
      if (!("str" in item) || item.str.trim() === "") continue;
      const y = Math.round(item.transform[5]);
      const line = lines.get(y) ?? [];
      line.push({ x: item.transform[4], s: item.str });
      lines.set(y, line);
    }
    pages.push(
      [...lines.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([, items]) =>
          items
            .sort((a, b) => a.x - b.x)
            .map((i) => i.s)
            .join(" "),
        )
        .join("\n"),
    );
  }
  await doc.cleanup();
  return pages.join("\f");
}

/** Number of pages and the document's info dictionary (Title, Producer...). */
export async function pdfInfo(bytes: Uint8Array): Promise<{ pages: number; info: Record<string, unknown> }> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const meta = await doc.getMetadata();
  const out = { pages: doc.numPages, info: meta.info as Record<string, unknown> };
  await doc.cleanup();
  return out;
}

/** Embedded images of every page as RGBA pixels. */
export async function pdfImages(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; rgba: Uint8ClampedArray }[]> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const out: { width: number; height: number; rgba: Uint8ClampedArray }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    for (const img of await extractImages(doc, n)) {
      const { width, height, channels, data } = img;
      const rgba = new Uint8ClampedArray(width * height * 4);
      for (let i = 0; i < width * height; i++) {
        for (let c = 0; c < 3; c++) rgba[i * 4 + c] = data[i * channels + (channels >= 3 ? c : 0)]!;
        rgba[i * 4 + 3] = channels === 4 ? data[i * 4 + 3]! : 255;
      }
      out.push({ width, height, rgba });
    }
  }
  await doc.cleanup();
  return out;
}

/** Decoded contents of the QR codes among the PDF's images (jsQR). */
export async function pdfQrCodes(bytes: Uint8Array): Promise<string[]> {
  return (await pdfImages(bytes)).map((i) => jsQR(i.rgba, i.width, i.height)?.data ?? "").filter(Boolean);
}
