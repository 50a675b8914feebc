/**
 * What the sandbox provider (src/providers/sandbox) shares with the domain and the hosted pages:
 * its fault modes and store, its payer events (types.ts re-exports these) and its test cards,
 * which the checkout lists without importing a provider.
 */
import type { PaymentMethod } from "../charges/model";

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

/** Test cards of the sandbox checkout form, by outcome (the sandbox card acquirer decides by them). */
export const SANDBOX_CARDS = {
  approve: "4242424242424242",
  decline: "4000000000000002",
  threeDsApprove: "4000000000003220",
  threeDsDecline: "4000000000003063",
} as const;
