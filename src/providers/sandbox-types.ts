/** What the sandbox provider shares with the domain: its fault modes and store, and its payer events (src/providers/types.ts re-exports these). */
import type { PaymentMethod } from "../domain/charges/model";

type MaybeAsync<T> = T | Promise<T>;

/** Sandbox provider faults (extensions.md `provider_faults`), stored by the domain. */
export type FaultMode = "reject" | "unavailable";

/** Storage the sandbox provider receives for its faults (implemented in src/domain/charges/faults.ts). */
export interface SandboxFaultStore {
  /** Takes one pending fault of the account (in its own short unit of work), or null when none is left. */
  take(accountId: string): MaybeAsync<FaultMode | null>;
}

/**
 * Body of the sandbox's notifications: what its simulated payer does (test helper `pay`,
 * the checkout's simulate button and card form). Validated by the domain before it is sent.
 */
export type SandboxPayerEvent =
  | {
      kind: "pay";
      method: PaymentMethod;
      outcome: "succeed" | "decline";
      amount: number;
      payerTaxId: string | null;
      payerName: string | null;
      disclosed: boolean;
    }
  | { kind: "card"; number: string };
