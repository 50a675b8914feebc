/**
 * Sandbox MBWAY: a payment request "pushed" to the payer's phone (`metadata.phone`, E.164,
 * validated at creation). Nothing public is added to the transaction; it stays WAITING_PAYMENT
 * until paid (test helper `pay` with method MBWAY) or expired (5 minutes, like MB WAY itself).
 */
import type { SandboxMethod } from "./method";
import { methodExpiryColumns } from "./expiry";

/** Lifetime of an MB WAY request, seconds. */
export const MBWAY_TTL_SECONDS = 300;

export const sandboxMbway: SandboxMethod = {
  method: "MBWAY",
  refundable: false,
  prepare(ctx, tx) {
    let phone: unknown = null;
    try {
      phone = JSON.parse(tx.metadata ?? "{}").phone ?? null;
    } catch {}
    const now = ctx.clock.nowMs();
    return {
      columns: methodExpiryColumns(tx, now + MBWAY_TTL_SECONDS * 1000),
      details: {
        pushedTo: typeof phone === "string" ? phone.slice(0, -4).replace(/\d/g, "*") + phone.slice(-4) : null,
        pushedAt: new Date(now).toISOString(),
        expiresAt: new Date(now + MBWAY_TTL_SECONDS * 1000).toISOString(),
      },
    };
  },
};
