/**
 * The delivery worker's runtime (`deps.delivery`, built by createDeps): HTTP timeout, the jitter
 * source, DNS lookup, fetch, and the per-destination concurrency cap behind `DestinationSlots`
 * (in-process here; a cross-instance version can replace it). Production uses the defaults;
 * tests shorten the timeout and fix the jitter with `configureWebhookRuntime`.
 */
import { promises as dns } from "node:dns";
import type { Lookup } from "./url-rules";

/**
 * Per-destination in-flight caps (destination key: endpoint id, or `url:<targetUrl>`). A due
 * delivery over the cap waits up to `slotWaitMs` for a slot, else it is rescheduled.
 */
export interface DestinationSlots {
  /** Takes a slot for `key`, waiting up to the runtime's `slotWaitMs`; false when none freed in time. */
  acquire(key: string): Promise<boolean>;
  /** Releases a slot of `key` (handed to the oldest waiter when there is one). */
  release(key: string): void;
}

/** What one delivery attempt runs with (see the module header). */
export interface DeliveryRuntime {
  /** Whole-attempt timeout in ms (interface.md: 30 s). */
  timeoutMs: number;
  /** Jitter source returning [0, 1). */
  random: () => number;
  /** DNS lookup used by the SSRF guard. */
  lookup: Lookup;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /**
   * Attempts in flight to one destination at most (below the scheduler's 32, so a slow
   * destination never holds every worker). A due delivery over the cap waits up to
   * `slotWaitMs` (ms) for a slot (fast destinations free one in milliseconds), else it is
   * rescheduled `busyRetryMs` (ms) later without counting an attempt.
   */
  perTargetConcurrency: number;
  slotWaitMs: number;
  busyRetryMs: number;
  /** The caps themselves. */
  slots: DestinationSlots;
}
/** The former name of DeliveryRuntime. */
export type WebhookRuntime = DeliveryRuntime;

const defaultLookup: Lookup = async (host) => {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family }));
};

/** In-process DestinationSlots: counts and FIFO waiters per key, limits read from `limits` at each call. */
export class LocalSlots implements DestinationSlots {
  private readonly inflight = new Map<string, { count: number; waiters: ((ok: boolean) => void)[] }>();

  constructor(private readonly limits: Pick<DeliveryRuntime, "perTargetConcurrency" | "slotWaitMs">) {}

  async acquire(key: string): Promise<boolean> {
    let slot = this.inflight.get(key);
    if (!slot) this.inflight.set(key, (slot = { count: 0, waiters: [] }));
    if (slot.count < this.limits.perTargetConcurrency) {
      slot.count++;
      return true;
    }
    const s = slot;
    return new Promise<boolean>((resolve) => {
      const waiter = (ok: boolean) => {
        clearTimeout(timer);
        resolve(ok);
      };
      const timer = setTimeout(() => {
        const i = s.waiters.indexOf(waiter);
        if (i >= 0) s.waiters.splice(i, 1);
        resolve(false);
      }, this.limits.slotWaitMs);
      s.waiters.push(waiter);
    });
  }

  release(key: string): void {
    const slot = this.inflight.get(key);
    if (!slot) return;
    const next = slot.waiters.shift();
    if (next) {
      next(true);
      return;
    }
    slot.count--;
    if (slot.count <= 0) this.inflight.delete(key);
  }
}

/** A runtime with the production defaults (30 s timeout, 16 attempts in flight per destination). */
export function createDeliveryRuntime(): DeliveryRuntime {
  const rt: Omit<DeliveryRuntime, "slots"> = {
    timeoutMs: 30_000,
    random: Math.random,
    lookup: defaultLookup,
    fetch: (url, init) => fetch(url, init),
    perTargetConcurrency: 16,
    slotWaitMs: 100,
    busyRetryMs: 1000,
  };
  return Object.assign(rt, { slots: new LocalSlots(rt) });
}

/** The runtime of `deps`. */
export function webhookRuntime(deps: { delivery: DeliveryRuntime }): DeliveryRuntime {
  return deps.delivery;
}

/** Overrides parts of the runtime of `deps` (tests, bench). Returns the runtime. */
export function configureWebhookRuntime(
  deps: { delivery: DeliveryRuntime },
  overrides: Partial<Omit<DeliveryRuntime, "slots">>,
): DeliveryRuntime {
  return Object.assign(deps.delivery, overrides);
}
