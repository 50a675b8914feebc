/**
 * A new PDF with the embedded font of receipts and boletos: DejaVu Sans Condensed (package
 * `dejavu-fonts-ttf`, Bitstream Vera / DejaVu free licence), regular and bold, subset into each
 * document. pdf-lib's standard fonts are WinAnsi only; this one draws every Portuguese letter
 * ("Beneficiário", "São"). The TTFs are imported as files so `bun build --compile` carries them.
 */
import { PDFDocument, type PDFFont } from "pdf-lib";
import regularPath from "dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf" with { type: "file" };
import boldPath from "dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf" with { type: "file" };

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];
let loaded: Promise<{ fontkit: Fontkit; regular: Uint8Array; bold: Uint8Array }> | undefined;

/**
 * fontkit and the two TTFs (about 1.3 MB), loaded once per process on the first document:
 * importing fontkit costs ~0.75 s of CPU, which `serve` and the CLI must not pay at startup.
 */
function loadFonts() {
  loaded ??= Promise.all([import("@pdf-lib/fontkit"), Bun.file(regularPath).bytes(), Bun.file(boldPath).bytes()]).then(
    ([m, regular, bold]) => {
      const fontkit = m.default as Fontkit;
      // pdf-lib parses the font again for every document; a parsed font is read-only (each
      // document takes its own subset of it), so one parse per file serves every document.
      const parsed = new Map<Uint8Array, ReturnType<Fontkit["create"]>>();
      const create: Fontkit["create"] = (bytes, name) => {
        let font = parsed.get(bytes);
        if (!font) parsed.set(bytes, (font = fontkit.create(bytes, name)));
        return font;
      };
      return { fontkit: { ...fontkit, create } as Fontkit, regular, bold };
    },
  );
  return loaded;
}

/**
 * An empty document titled `title`, created and modified at `atMs` (epoch ms, so the same state
 * gives the same metadata), with the fonts embedded.
 */
export async function newDocument(title: string, atMs: number): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const { fontkit, regular: regularTtf, bold: boldTtf } = await loadFonts();
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
