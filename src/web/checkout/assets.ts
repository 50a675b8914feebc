/**
 * The checkout's stylesheet and script as static files (issue 13 section 3: no inline script or
 * style, so the CSP needs neither a nonce nor 'unsafe-inline'). Content-addressed names
 * (`checkout-<sha256 prefix>.css|.js`) let browsers cache them forever; served by
 * src/http/routes/public/assets.ts at `{checkout_path}/assets/<file>`.
 */
import { sha256Hex } from "../../lib/crypto";
import { CHECKOUT_SCRIPT } from "./script";
import { CHECKOUT_CSS } from "./styles";

export interface StaticAsset {
  body: string;
  contentType: string;
  /** Strong ETag (the content hash). */
  etag: string;
}

function asset(stem: string, ext: string, body: string, contentType: string): [string, StaticAsset] {
  const hash = sha256Hex(body).slice(0, 16);
  return [`${stem}-${hash}.${ext}`, { body, contentType, etag: `"${hash}"` }];
}

const [STYLE_FILE, STYLE] = asset("checkout", "css", CHECKOUT_CSS, "text/css; charset=utf-8");
const [SCRIPT_FILE, SCRIPT] = asset("checkout", "js", CHECKOUT_SCRIPT, "text/javascript; charset=utf-8");
const FILES = new Map([
  [STYLE_FILE, STYLE],
  [SCRIPT_FILE, SCRIPT],
]);

/** File names (under `{checkout_path}/assets/`) of the current stylesheet and script. */
export const CHECKOUT_ASSET_FILES = { style: STYLE_FILE, script: SCRIPT_FILE } as const;

/** The asset named `file`, or undefined (an old hash, a typo). */
export function checkoutAsset(file: string): StaticAsset | undefined {
  return FILES.get(file);
}
