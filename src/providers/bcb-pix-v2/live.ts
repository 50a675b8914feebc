/**
 * The registry's live slot for bcb_pix_v2 (src/domain/providers/registry.ts `LiveProviderLookup`): the
 * account's active connection, found through a function the composition root passes (providers
 * never touch the database), served by the gateway's pooled provider and client of the connection
 * version. Synchronous: secrets are opened on the first call that needs the client.
 * `createConnectionLookup` is the registry's by-id slot: the provider of any stored connection,
 * deleted or replaced ones included, for the charges it created (status checks, callbacks).
 */
import type { PaymentMethod } from "../../domain/charges/model";
import type { ConnectionProviderLookup, LiveProviderLookup } from "../../domain/providers/registry";
import type { PaymentProvider } from "../../domain/providers/types";
import type { BcbConnection } from "./client";
import type { BcbConnectionGateway } from "./gateway";
import { createBcbPixProvider } from "./provider";

/** What the lookup needs of a stored connection. */
export interface StoredConnection {
  id: string;
  /** `bcb_pix_v2` or `efi` (the provider's flavour). */
  type: string;
  pixKey: string;
  /** Version of the row (epoch ms of its last change). */
  updatedAt: number;
}

export interface LiveLookupOptions<R extends StoredConnection> {
  /** The account's active connection, or undefined. */
  find: (accountId: string) => R | undefined;
  /** Opens the connection's secrets. */
  open: (row: R) => Promise<BcbConnection>;
  gateway: () => BcbConnectionGateway;
}

/** The provider of a connection version, pooled by the gateway with its client (shared by both lookups). */
function providerOf<R extends StoredConnection>(opts: LiveLookupOptions<R>, row: R): PaymentProvider {
  const gateway = opts.gateway();
  const version = String(row.updatedAt);
  return gateway.provider(row.id, version, () =>
    createBcbPixProvider({
      connectionId: row.id,
      flavour: row.type === "efi" ? "efi" : "bcb_pix_v2",
      pixKey: row.pixKey,
      client: () => gateway.pooled(row.id, version, () => opts.open(row)),
    }),
  );
}

export function createLiveLookup<R extends StoredConnection>(opts: LiveLookupOptions<R>): LiveProviderLookup {
  return (accountId: string, method: PaymentMethod) => {
    if (method !== "PIX") return undefined;
    const row = opts.find(accountId);
    return row ? providerOf(opts, row) : undefined;
  };
}

/** The provider of stored connection `id` (`findById` returns deleted rows too), or undefined. */
export function createConnectionLookup<R extends StoredConnection>(
  opts: LiveLookupOptions<R> & { findById: (id: string) => R | undefined },
): ConnectionProviderLookup {
  return (id: string) => {
    const row = opts.findById(id);
    return row ? providerOf(opts, row) : undefined;
  };
}
