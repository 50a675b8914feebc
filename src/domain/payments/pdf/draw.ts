/**
 * Drawing helpers shared by the receipt and the boleto (pdf-lib, points, origin bottom-left):
 * fitted text, wrapped text, FEBRABAN-style labelled cells, rules and the SANDBOX marking.
 */
import { degrees, rgb, type PDFFont, type PDFPage, type RGB } from "pdf-lib";
import type { Fonts } from "./document";

/** Where to draw: one page and the document's fonts. */
export interface Pen {
  page: PDFPage;
  fonts: Fonts;
}

export interface TextOptions {
  /** Points (default 9). */
  size?: number;
  bold?: boolean;
  color?: RGB;
  /** x is the left edge (default), the right edge, or the centre. */
  align?: "left" | "right" | "center";
  /** Available width: the size shrinks down to 6 pt, then the text is cut with "…". */
  width?: number;
  /** Drawn after the text and never cut (e.g. the CNPJ after a long name). */
  keep?: string;
}

export const BLACK = rgb(0, 0, 0);
export const GREY = rgb(0.35, 0.35, 0.35);
export const RED = rgb(0.75, 0, 0);

/** Control characters (newlines included) become spaces: one drawText draws one line. */
function clean(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
}

/** Draws `s` with its baseline at y. */
export function text(pen: Pen, s: string, x: number, y: number, o: TextOptions = {}): void {
  const font = o.bold ? pen.fonts.bold : pen.fonts.regular;
  let size = o.size ?? 9;
  let head = clean(s);
  const keep = clean(o.keep ?? "");
  // Widths scale linearly with the size: one measure finds the size that fits (text layout is
  // the costly part of a document, so measure as little as possible).
  let value = head + keep;
  let w = font.widthOfTextAtSize(value, size);
  if (o.width !== undefined && w > o.width) {
    size = Math.max(6, Math.floor(((size * o.width) / w) * 4) / 4);
    w = font.widthOfTextAtSize(value, size);
    while (head.length > 1 && w > o.width) {
      head = `${head.slice(0, -2)}…`;
      value = head + keep;
      w = font.widthOfTextAtSize(value, size);
    }
  }
  const left = o.align === "right" ? x - w : o.align === "center" ? x - w / 2 : x;
  pen.page.drawText(value, { x: left, y, size, font, color: o.color ?? BLACK });
}

/** Lines of `s` wrapped at `width` points on word boundaries (a longer word is cut), at most `max` lines. */
export function wrap(font: PDFFont, s: string, size: number, width: number, max = 3): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of clean(s).split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > max) {
    lines.length = max;
    lines[max - 1] = `${lines[max - 1]}…`;
  }
  return lines;
}

export interface Box {
  x: number;
  /** Bottom edge. */
  y: number;
  w: number;
  h: number;
}

/** A thin horizontal rule from x1 to x2 at y; dashed for the boleto's cut line. */
export function rule(
  pen: Pen,
  x1: number,
  x2: number,
  y: number,
  o: { thickness?: number; dashed?: boolean } = {},
): void {
  pen.page.drawLine({
    start: { x: x1, y },
    end: { x: x2, y },
    thickness: o.thickness ?? 0.5,
    color: BLACK,
    dashArray: o.dashed ? [3, 2] : undefined,
  });
}

/**
 * A labelled cell of the FEBRABAN layout: its border, the label in 6 pt at the top-left and the
 * value in `size` (default 9) on the line below, left- or right-aligned, fitted to the width
 * (`keep` follows the value and is never cut).
 */
export function cell(
  pen: Pen,
  b: Box,
  label: string,
  value: string,
  o: { align?: "left" | "right"; bold?: boolean; size?: number; keep?: string } = {},
): void {
  pen.page.drawRectangle({ x: b.x, y: b.y, width: b.w, height: b.h, borderColor: BLACK, borderWidth: 0.5 });
  text(pen, label, b.x + 2, b.y + b.h - 7, { size: 6, color: GREY, width: b.w - 4 });
  if (!value) return;
  const x = o.align === "right" ? b.x + b.w - 3 : b.x + 3;
  text(pen, value, x, b.y + b.h - 17, {
    size: o.size ?? 9,
    bold: o.bold,
    align: o.align,
    width: b.w - 6,
    keep: o.keep,
  });
}

/**
 * The visible SANDBOX marking of every document produced in test mode (extensions.md "Receipts
 * as files"): a red band across the top of the page with `note`, and a light diagonal watermark.
 */
export function sandboxMark(pen: Pen, note: string): void {
  const { width, height } = pen.page.getSize();
  pen.page.drawRectangle({ x: 0, y: height - 22, width, height: 22, color: RED });
  text(pen, `SANDBOX — ${note}`, width / 2, height - 15, {
    size: 10,
    bold: true,
    color: rgb(1, 1, 1),
    align: "center",
    width: width - 20,
  });
  pen.page.drawText("SANDBOX", {
    x: width * 0.18,
    y: height * 0.3,
    size: 110,
    font: pen.fonts.bold,
    color: RED,
    opacity: 0.08,
    rotate: degrees(35),
  });
}
