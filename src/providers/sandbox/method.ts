/** What each sandbox method module implements: how a new transaction is finalised for that method. */
import type { PaymentMethod } from "../../domain/charges/model";
import type { CreatedColumns, CreateRequest, ProviderContext, TransactionRow } from "../../domain/providers/types";

export interface PreparedMethod {
  /** Column values to set on the transaction row. */
  columns?: CreatedColumns;
  /** Public details merged into `method_details[<METHOD>]`. */
  details?: Record<string, unknown>;
}

export interface SandboxMethod {
  readonly method: PaymentMethod;
  /** True when refunds of this method are served (interface.md: Pix and card). */
  readonly refundable: boolean;
  /** Finalises the method for `tx` (the row with the columns of the methods before it). Throws ProviderError. */
  prepare(ctx: ProviderContext, tx: TransactionRow, merchant: CreateRequest["merchant"]): PreparedMethod;
}
