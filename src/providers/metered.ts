/**
 * A provider that times its calls (docs/operations.md `cofre_psp_request_duration_seconds`): the
 * same object's flows, each call reported with the provider's name, the operation and its outcome
 * (`ok`, a ProviderFailure status, or `error` when it threw). Synchronous flows (the sandbox) stay
 * synchronous. Built by the composition root only when metrics are on.
 */
import type { PaymentProvider } from "../domain/providers/types";

/** The flows that reach the provider (network for live PSPs); parseNotification/planRefund/reserve are local. */
const TIMED = [
  "create",
  "queryStatus",
  "refund",
  "refundStatus",
  "cancel",
  "returnPayment",
  "returnStatus",
  "disputeStatus",
  "listPayments",
  "send",
  "sendStatus",
  "listSends",
  "listInfractions",
  "submitDefense",
] as const;

const FAILURES = new Set(["rejected", "retryable", "auth_failed", "not_supported", "invalid"]);

export type PspObserver = (provider: string, operation: string, outcome: string, durationMs: number) => void;

function outcomeOf(result: unknown): string {
  const status = (result as { status?: unknown } | null)?.status;
  return typeof status === "string" && FAILURES.has(status) ? status : "ok";
}

const wrapped = new WeakMap<PaymentProvider, PaymentProvider>();

/** `provider` with its flows timed through `observe` (one wrapper per provider object). */
export function metered(provider: PaymentProvider, observe: PspObserver): PaymentProvider {
  let out = wrapped.get(provider);
  if (out) return out;
  out = Object.create(provider) as PaymentProvider;
  for (const op of TIMED) {
    const fn = (provider as unknown as Record<string, unknown>)[op];
    if (typeof fn !== "function") continue;
    (out as unknown as Record<string, unknown>)[op] = function (this: unknown, ...args: unknown[]) {
      const started = performance.now();
      let result: unknown;
      try {
        result = (fn as (...a: unknown[]) => unknown).apply(provider, args);
      } catch (err) {
        observe(provider.name, op, "error", performance.now() - started);
        throw err;
      }
      if (result instanceof Promise)
        return result.then(
          (r) => {
            observe(provider.name, op, outcomeOf(r), performance.now() - started);
            return r;
          },
          (err) => {
            observe(provider.name, op, "error", performance.now() - started);
            throw err;
          },
        );
      observe(provider.name, op, outcomeOf(result), performance.now() - started);
      return result;
    };
  }
  wrapped.set(provider, out);
  return out;
}
