/**
 * The registry's live card slot for Stripe (src/domain/providers/registry.ts `LiveProviderLookup`): the
 * account's active card connection, found through a function the composition root passes
 * (providers never touch the database), served by the gateway's pooled provider and client of the
 * connection version; and the by-id slot for the payments a connection created (deleted or
 * replaced ones included). Synchronous: secrets are opened on the first call that needs the client.
 */
import type { CardConnectionSpec } from "../../domain/card-provider/port";
import type { PaymentMethod } from "../../domain/charges/model";
import type { ConnectionProviderLookup, LiveProviderLookup } from "../../domain/providers/registry";
import type { PaymentProvider } from "../../domain/providers/types";
import type { StripeConnectionGateway } from "./gateway";
import { createStripeProvider } from "./provider";

/** What the lookup needs of a stored card connection. */
export interface StoredCardConnection {
  id: string;
  /** Version of the row (epoch ms of its last change). */
  updatedAt: number;
}

export interface CardLookupOptions<R extends StoredCardConnection> {
  /** The account's active card connection, or undefined. */
  find: (accountId: string) => R | undefined;
  /** Connection `id`, deleted or not. */
  findById: (id: string) => R | undefined;
  /** Opens the connection's secrets. */
  open: (row: R) => Promise<CardConnectionSpec>;
  gateway: () => StripeConnectionGateway;
}

/** The methods a card connection serves. */
export const CARD_METHODS: ReadonlySet<PaymentMethod> = new Set<PaymentMethod>(["CREDIT_CARD", "BOLETO"]);

function providerOf<R extends StoredCardConnection>(opts: CardLookupOptions<R>, row: R): PaymentProvider {
  const gateway = opts.gateway();
  const version = String(row.updatedAt);
  return gateway.provider(row.id, version, () =>
    createStripeProvider({ connectionId: row.id, client: () => gateway.pooled(row.id, version, () => opts.open(row)) }),
  );
}

/** CREDIT_CARD and BOLETO of an account through its active card connection. */
export function createCardLiveLookup<R extends StoredCardConnection>(opts: CardLookupOptions<R>): LiveProviderLookup {
  return (accountId, method) => {
    if (!CARD_METHODS.has(method)) return undefined;
    const row = opts.find(accountId);
    return row ? providerOf(opts, row) : undefined;
  };
}

/** The provider of stored card connection `id`, or undefined. */
export function createCardConnectionLookup<R extends StoredCardConnection>(
  opts: CardLookupOptions<R>,
): ConnectionProviderLookup {
  return (id) => {
    const row = opts.findById(id);
    return row ? providerOf(opts, row) : undefined;
  };
}
