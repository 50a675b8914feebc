/**
 * Which provider serves a method for an account in a mode. The composition root (createDeps)
 * builds one registry with the sandbox (test keys, every method) and a live lookup (the account's
 * provider connection, extensions.md "Live Pix"); with no live connection a live request gets
 * undefined, which the domain answers with 422 `unprocessable_entity` (create) or
 * 400 `REFUND_NOT_SUPPORTED` (refund). The domain imports this and types.ts, never a provider.
 */
import type { Config } from "../config";
import type { PaymentMethod } from "../domain/charges/model";
import type { Clock } from "../lib/clock";
import type { HttpFetch, PaymentProvider, ProviderContext } from "./types";

/** The live provider of (account, method), or undefined when the account has no connection. */
export type LiveProviderLookup = (accountId: string, method: PaymentMethod) => PaymentProvider | undefined;

export interface RegistryOptions {
  config: Config;
  clock: Clock;
  /** Serves test-mode (livemode false) transactions. */
  sandbox?: PaymentProvider;
  /** Live connections; default: none. */
  live?: LiveProviderLookup;
  /** HTTP client handed to providers; default the global fetch. */
  fetch?: HttpFetch;
}

export class ProviderRegistry {
  /** Passed to every provider call (built once). */
  readonly ctx: ProviderContext;
  private readonly sandbox?: PaymentProvider;
  private readonly live: LiveProviderLookup;

  constructor(opts: RegistryOptions) {
    this.ctx = { config: opts.config, clock: opts.clock, fetch: opts.fetch ?? ((input, init) => fetch(input, init)) };
    this.sandbox = opts.sandbox;
    this.live = opts.live ?? (() => undefined);
  }

  /** The provider serving `method` for the scope's account and mode, or undefined. */
  forMethod(scope: { accountId: string; livemode: boolean }, method: PaymentMethod): PaymentProvider | undefined {
    if (scope.livemode) return this.live(scope.accountId, method);
    return this.sandbox?.methods.has(method) ? this.sandbox : undefined;
  }
}
