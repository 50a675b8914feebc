/**
 * Which provider serves a method in a mode. Sandbox (test keys) serves every method; live mode has
 * no adapter configured yet, so a live request for any method gets 422 `unprocessable_entity`.
 */
import type { PaymentMethod } from "../domain/charges/model";
import type { MethodProvider } from "./types";

const sandbox = new Map<PaymentMethod, MethodProvider>();
const live = new Map<PaymentMethod, MethodProvider>();

/** Adds a sandbox provider (called at module load by src/providers/sandbox/index.ts). */
export function registerSandboxProvider(p: MethodProvider): void {
  sandbox.set(p.method, p);
}

/** Adds a live adapter. */
export function registerLiveProvider(p: MethodProvider): void {
  live.set(p.method, p);
}

/** The provider for `method` in the key's mode, or undefined when none is configured. */
export function providerFor(livemode: boolean, method: PaymentMethod): MethodProvider | undefined {
  return (livemode ? live : sandbox).get(method);
}
