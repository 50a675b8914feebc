/**
 * The provider boundary (Hyperswitch style): each payment method's acquirer sits behind one
 * MethodProvider. The sandbox implements every method deterministically; live adapters sit
 * beside it. Providers never touch the database: they return what the service stores.
 */
import type { transactions } from "../../db/schema";
import type { Deps } from "../deps";
import type { AccountRules } from "../domain/accounts/settings";
import type { PaymentMethod } from "../domain/charges/model";

export type TransactionRow = typeof transactions.$inferSelect;

/** What finalising a method with its acquirer yields; stored on the transaction. */
export interface PreparedMethod {
  /** Column values to set on the transaction row (e.g. Pix BR Code, txid, location, expiry). */
  columns?: Partial<Pick<TransactionRow, "pixBrCode" | "pixTxid" | "pixLocation" | "expiresAt">>;
  /** Method-specific public details merged into `method_details[<METHOD>]`. */
  details?: Record<string, unknown>;
}

export interface PrepareContext {
  deps: Deps;
  /** The transaction as it will be inserted (id, amount, currency, customer...). */
  tx: TransactionRow;
  settings: AccountRules;
  /** Receiver shown to the payer (BR Code fields 59/60): the account name and a city. */
  merchant?: { name: string; city: string };
}

export interface MethodProvider {
  readonly method: PaymentMethod;
  /** True when the provider can refund (interface.md: Pix and card; others REFUND_NOT_SUPPORTED). */
  readonly supportsRefund: boolean;
  /** Finalises the method for `ctx.tx`. Throws ProviderError. */
  prepare(ctx: PrepareContext): Promise<PreparedMethod> | PreparedMethod;
}

/** Typed provider failures: mapped to 201 `failed` (rejected), 503 (unavailable) or 422 (not supported). */
export class ProviderError extends Error {
  constructor(
    readonly kind: "rejected" | "unavailable" | "not_supported",
    message: string,
    /** Provider's own error code, surfaced as `metadata.failure.providerErrorCode`. */
    readonly providerErrorCode?: string,
  ) {
    super(message);
  }
}
