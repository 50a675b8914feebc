/**
 * Which provider serves a method for an account in a mode. The composition root (createDeps)
 * builds one registry with the sandbox (test keys, every method) and a live lookup (the account's
 * provider connection, extensions.md "Live Pix"); live lookups may combine
 * several connection kinds (Pix, cards); with no live connection a live request gets
 * undefined, which the domain answers with 422 `unprocessable_entity` (create) or
 * 400 `REFUND_NOT_SUPPORTED` (refund). Declared in the domain, which imports nothing from
 * src/providers: the adapters there implement PaymentProvider and the composition root plugs them in.
 */
import type { Config } from "../../config";
import type { PaymentMethod } from "../charges/model";
import type { Clock } from "../../lib/clock";
import type { HttpFetch, PaymentProvider, ProviderContext } from "./types";

/** The live provider of (account, method), or undefined when the account has no connection. */
export type LiveProviderLookup = (accountId: string, method: PaymentMethod) => PaymentProvider | undefined;
/**
 * The provider of a stored connection by its id, deleted or replaced ones included (status
 * queries, notifications and sweeps of charges it created), or undefined when no such row.
 */
export type ConnectionProviderLookup = (connectionId: string) => PaymentProvider | undefined;

export interface RegistryOptions {
  config: Config;
  clock: Clock;
  /** Serves test-mode (livemode false) transactions. */
  sandbox?: PaymentProvider;
  /** Live connections; default: none. */
  live?: LiveProviderLookup;
  /** Stored connections by id (for charges they created); default: none. */
  byConnection?: ConnectionProviderLookup;
  /** HTTP client handed to providers; default the global fetch. */
  fetch?: HttpFetch;
}

export class ProviderRegistry {
  /** Passed to every provider call (built once). */
  readonly ctx: ProviderContext;
  private readonly sandbox?: PaymentProvider;
  private readonly live: LiveProviderLookup;
  private readonly byConnection: ConnectionProviderLookup;

  constructor(opts: RegistryOptions) {
    this.ctx = { config: opts.config, clock: opts.clock, fetch: opts.fetch ?? ((input, init) => fetch(input, init)) };
    this.sandbox = opts.sandbox;
    this.live = opts.live ?? (() => undefined);
    this.byConnection = opts.byConnection ?? (() => undefined);
  }

  /** The provider of stored connection `connectionId` (deleted included), or undefined. */
  forConnection(connectionId: string): PaymentProvider | undefined {
    return this.byConnection(connectionId);
  }

  /**
   * The provider that serves an existing transaction: the connection that created it when it
   * has one (even deleted or replaced since: it keeps settling through polls), else forMethod.
   * A transaction offering methods of two live connections (PIX and CREDIT_CARD) records the first
   * one: a method that connection does not serve goes to the account's connection of that method.
   */
  forTransaction(
    row: { accountId: string; livemode: boolean; providerConnectionId: string | null },
    method: PaymentMethod,
  ): PaymentProvider | undefined {
    if (row.providerConnectionId) {
      const p = this.byConnection(row.providerConnectionId);
      if (!p || p.methods.has(method)) return p;
    }
    return this.forMethod(row, method);
  }

  /** The provider serving `method` for the scope's account and mode, or undefined. */
  forMethod(scope: { accountId: string; livemode: boolean }, method: PaymentMethod): PaymentProvider | undefined {
    if (scope.livemode) return this.live(scope.accountId, method);
    return this.sandbox?.methods.has(method) ? this.sandbox : undefined;
  }
}
