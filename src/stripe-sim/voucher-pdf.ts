/**
 * stripe-sim boleto voucher PDF: a one-page PDF 1.4 written by hand (Helvetica, text lines only,
 * correct xref offsets) so `next_action.boleto_display_details.pdf` serves a real PDF without a
 * PDF library. Text is Latin-1 (WinAnsi); other characters become `?`.
 */
function pdfText(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const b = c < 256 ? ch : "?";
    out += b === "(" || b === ")" || b === "\\" ? `\\${b}` : b;
  }
  return out;
}

/** The PDF bytes of a voucher with `lines` (top to bottom). */
export function voucherPdf(title: string, lines: string[]): Uint8Array {
  const ops = [`BT /F1 16 Tf 50 790 Td (${pdfText(title)}) Tj ET`];
  lines.forEach((l, i) => {
    ops.push(`BT /F1 11 Tf 50 ${760 - i * 18} Td (${pdfText(l)}) Tj ET`);
  });
  const stream = ops.join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, "latin1"));
}
