/**
 * A new PDF with the embedded font of receipts and boletos: DejaVu Sans Condensed (package
 * `dejavu-fonts-ttf`, Bitstream Vera / DejaVu free licence), regular and bold, subset into each
 * document. pdf-lib's standard fonts are WinAnsi only; this one draws every Portuguese letter
 * ("Beneficiário", "São"). The TTFs are imported as files so `bun build --compile` carries them.
 */
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont } from "pdf-lib";
import regularPath from "dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf" with { type: "file" };
import boldPath from "dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf" with { type: "file" };

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

let fontBytes: Promise<[Uint8Array, Uint8Array]> | undefined;

/** The two TTFs, read once per process (about 1.3 MB together). */
function loadFonts(): Promise<[Uint8Array, Uint8Array]> {
  fontBytes ??= Promise.all([Bun.file(regularPath).bytes(), Bun.file(boldPath).bytes()]);
  return fontBytes;
}

/**
 * An empty document titled `title`, created and modified at `atMs` (epoch ms, so the same state
 * gives the same metadata), with the fonts embedded.
 */
export async function newDocument(title: string, atMs: number): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const [regularTtf, boldTtf] = await loadFonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(title);
  doc.setLanguage("pt-BR");
  doc.setProducer("Cofre");
  doc.setCreator("Cofre");
  doc.setCreationDate(new Date(atMs));
  doc.setModificationDate(new Date(atMs));
  const regular = await doc.embedFont(regularTtf, { subset: true });
  const bold = await doc.embedFont(boldTtf, { subset: true });
  return { doc, fonts: { regular, bold } };
}
