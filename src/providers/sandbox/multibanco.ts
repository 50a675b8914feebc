/**
 * Sandbox MULTIBANCO: a payment reference (entity 5 digits, reference 9 digits with SIBS check
 * digits, src/formats/multibanco.ts) valid for 3 days. The reference base is derived from the
 * transaction id, so it is stable for the transaction.
 */
import { multibancoReference } from "../../formats/multibanco";
import type { SandboxMethod } from "./method";
import { methodExpiryColumns } from "./expiry";

/** Entity number the sandbox issues references under. */
export const SANDBOX_MB_ENTITY = "12345";
/** Lifetime of a reference, seconds. */
export const MB_TTL_SECONDS = 3 * 86400;
/** Largest amount a Multibanco reference can carry (8 digits of cents). */
const MB_MAX_CENTS = 99_999_999;

export const sandboxMultibanco: SandboxMethod = {
  method: "MULTIBANCO",
  refundable: false,
  prepare(ctx, tx) {
    const base = String(BigInt(`0x${tx.id.slice(-12)}`) % 10_000_000n).padStart(7, "0");
    const cents = Math.min(tx.amount, MB_MAX_CENTS);
    const until = ctx.clock.nowMs() + MB_TTL_SECONDS * 1000;
    return {
      columns: methodExpiryColumns(tx, until),
      details: {
        entity: SANDBOX_MB_ENTITY,
        reference: multibancoReference(SANDBOX_MB_ENTITY, base, cents),
        expiresAt: new Date(until).toISOString(),
      },
    };
  },
};
