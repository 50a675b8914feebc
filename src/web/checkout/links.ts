/**
 * Every URL the checkout page uses, relative to the page itself (issue 13 section 3): the page is
 * opened through whatever host the payer used (a phone on the LAN, a proxy), so it never builds
 * URLs from COFRE_PUBLIC_URL, and the CSP can stay `'self'`. The page is served at
 * `{checkoutPath}/<raw_id>`, so its directory is `{checkoutPath}/` and `../` per path segment
 * reaches the server root (a proxy that mounts the server under a prefix keeps working too).
 */
import { CHECKOUT_ASSET_FILES } from "./assets";

/** The page's stylesheet and script (`{checkoutPath}/assets/<file>`), relative to any page under `{checkoutPath}/`. */
export interface CheckoutAssetLinks {
  style: string;
  script: string;
}

export interface CheckoutLinks extends CheckoutAssetLinks {
  /** `GET {page}/status` JSON poll (src/http/routes/public). */
  status: string;
  /** `POST {page}/simulate` sandbox Pix payment (src/http/routes/public). */
  simulate: string;
  /** `POST {page}/pay` sandbox payment of a non-card method (src/http/routes/payments/checkout.ts). */
  pay: string;
  /** `POST {page}/card` sandbox card form (src/http/routes/payments/checkout.ts). */
  card: string;
  /** `GET /v1/qr/<raw_id>.png` QR image of the BR Code. */
  qr: string;
  /** `GET /v1/boletos/<raw_id>.pdf` boleto PDF. */
  boletoPdf: string;
  /** `GET {page}/comprovante.pdf` the receipt PDF once the outcome is final (src/http/routes/public). */
  receipt: string;
  /** `GET /favicon.ico`. */
  favicon: string;
}

/** Stylesheet and script links of a page served directly under the checkout path (also the 404 page). */
export function checkoutAssetLinks(): CheckoutAssetLinks {
  return { style: `assets/${CHECKOUT_ASSET_FILES.style}`, script: `assets/${CHECKOUT_ASSET_FILES.script}` };
}

/** Links of the page of `rawId` served under `checkoutPath` (e.g. `/c`; "" = the server root). */
export function checkoutLinks(checkoutPath: string, rawId: string): CheckoutLinks {
  const depth = checkoutPath.split("/").filter(Boolean).length;
  const root = depth === 0 ? "./" : "../".repeat(depth);
  return {
    ...checkoutAssetLinks(),
    status: `${rawId}/status`,
    simulate: `${rawId}/simulate`,
    pay: `${rawId}/pay`,
    card: `${rawId}/card`,
    qr: `${root}v1/qr/${rawId}.png`,
    boletoPdf: `${root}v1/boletos/${rawId}.pdf`,
    receipt: `${rawId}/comprovante.pdf`,
    favicon: `${root}favicon.ico`,
  };
}
