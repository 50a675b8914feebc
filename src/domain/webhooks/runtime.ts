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
  /** Attempts in flight to one destination at most; extra due deliveries wait `busyRetryMs`. */
  perTargetConcurrency: number;
  busyRetryMs: number;
  /** In-flight attempts per destination key (endpoint id or URL). */
  inflight: Map<string, number>;
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
    busyRetryMs: 250,
    inflight: new Map(),
  };
  runtimes.set(deps, rt);
  return rt;
}

/** Overrides parts of the runtime of `deps` (tests, bench). Returns the runtime. */
export function configureWebhookRuntime(deps: Deps, overrides: Partial<Omit<WebhookRuntime, "inflight">>): WebhookRuntime {
  return Object.assign(webhookRuntime(deps), overrides);
}
