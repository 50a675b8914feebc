/**
 * Injectable pieces of the delivery worker, kept per `deps` (no global state): HTTP timeout,
 * the jitter source, DNS lookup, fetch, and the per-destination concurrency cap. Production
 * uses the defaults; tests shorten the timeout and fix the jitter with `configureWebhookRuntime`.
 */
import { promises as dns } from "node:dns";
import type { Deps } from "../../deps";
import type { Lookup } from "./url-rules";

export interface WebhookRuntime {
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
   * `slotWaitMs` for a slot (fast destinations free one in milliseconds), else it is
   * rescheduled `busyRetryMs` later without counting an attempt.
   */
  perTargetConcurrency: number;
  slotWaitMs: number;
  busyRetryMs: number;
  /** In-flight attempts and waiters per destination key (endpoint id or URL). */
  inflight: Map<string, { count: number; waiters: ((ok: boolean) => void)[] }>;
}

const defaultLookup: Lookup = async (host) => {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family }));
};

const runtimes = new WeakMap<Deps, WebhookRuntime>();

/** The runtime of `deps` (created with defaults on first use). */
export function webhookRuntime(deps: Deps): WebhookRuntime {
  const found = runtimes.get(deps);
  if (found) return found;
  const rt: WebhookRuntime = {
    timeoutMs: 30_000,
    random: Math.random,
    lookup: defaultLookup,
    fetch: (url, init) => fetch(url, init),
    perTargetConcurrency: 16,
    slotWaitMs: 100,
    busyRetryMs: 1000,
    inflight: new Map(),
  };
  runtimes.set(deps, rt);
  return rt;
}

/** Overrides parts of the runtime of `deps` (tests, bench). Returns the runtime. */
export function configureWebhookRuntime(deps: Deps, overrides: Partial<Omit<WebhookRuntime, "inflight">>): WebhookRuntime {
  return Object.assign(webhookRuntime(deps), overrides);
}

/** Takes a slot for `key`, waiting up to `slotWaitMs`; false when none freed in time. */
export async function acquireSlot(rt: WebhookRuntime, key: string): Promise<boolean> {
  let slot = rt.inflight.get(key);
  if (!slot) rt.inflight.set(key, (slot = { count: 0, waiters: [] }));
  if (slot.count < rt.perTargetConcurrency) {
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
    }, rt.slotWaitMs);
    s.waiters.push(waiter);
  });
}

/** Releases a slot of `key`, handing it to the oldest waiter when there is one. */
export function releaseSlot(rt: WebhookRuntime, key: string): void {
  const slot = rt.inflight.get(key);
  if (!slot) return;
  const next = slot.waiters.shift();
  if (next) return next(true);
  slot.count--;
  if (slot.count <= 0) rt.inflight.delete(key);
}
