/**
 * Sandbox Pix provider: binds a cob txid, a location served by this process
 * (`<public host>/v1/pix/loc/<txid>`, no scheme, <= 77 chars) and the dynamic BR Code pointing at
 * it. Deterministic apart from the random txid; never leaves the process.
 */
import { PIX_LOCATION_PATH } from "../../domain/charges/location";
import { buildDynamicBrCode, MAX_LOCATION_LENGTH } from "../../pix/brcode";
import { cobTxidFor } from "../cob-txid";
import { ProviderError } from "../../domain/providers/types";
import type { SandboxMethod } from "./method";

/** `publicUrl` without its scheme and trailing slash, e.g. `pay.example.com`. */
export function locationBase(publicUrl: string): string {
  return publicUrl.replace(/^[a-z]+:\/\//i, "").replace(/\/+$/, "");
}

export const sandboxPix: SandboxMethod = {
  method: "PIX",
  refundable: true,
  prepare(ctx, tx, merchant) {
    const txid = cobTxidFor(tx);
    const location = `${locationBase(ctx.config.publicUrl)}${PIX_LOCATION_PATH}${txid}`;
    if (location.length > MAX_LOCATION_LENGTH)
      throw new ProviderError(
        "rejected",
        "The Pix location URL would exceed 77 characters; shorten COFRE_PUBLIC_URL.",
        "location_too_long",
      );
    const pixBrCode = buildDynamicBrCode({
      location,
      merchantName: merchant.name,
      merchantCity: merchant.city,
      amount: tx.amount,
    });
    return { columns: { pixBrCode, pixTxid: txid, pixLocation: location, expiresAt: tx.expiresAt } };
  },
};
