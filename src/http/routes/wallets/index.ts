/** GET /v1/wallets/balance and GET /v1/wallets (interface.md "Wallets"); apikey auth, read-only. */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { ApiError } from "../../errors";
import { FlatBalanceSchema, FullBalanceSchema, WalletSchema, flatBalanceView, fullBalanceView, walletCurrency, walletListView } from "../../../domain/ledger/views";
import { AUTH_ERRORS, op } from "../../openapi";
import { Type } from "../../../lib/view-schema";

/**
 * Wallet routes. Without `currency`: the full balance shape; with `currency=<ISO 4217>`: the flat
 * single-currency shape; a malformed or unknown code (neither ISO 4217 nor held, e.g. USDT) -> 400 `invalid_currency`. Missing or
 * invalid key -> 401 (never 404). Balances are those of the key's mode only.
 */
export function walletRoutes(deps: Deps) {
  return new Elysia()
    .use(apiKeyAuth(deps))
    .get(
      "/v1/wallets/balance",
      async ({ auth, query, request }) => {
        if (query.currency === undefined) return fullBalanceView(deps.store.read, auth.accountId, auth.livemode);
        const repeated = new URL(request.url).searchParams.getAll("currency").length > 1;
        const currency = repeated ? null : await walletCurrency(deps.store.read, auth.accountId, auth.livemode, query.currency);
        if (!currency)
          throw new ApiError("invalid_currency", "currency must be a known ISO 4217 code (e.g. BRL) or a currency the account holds (e.g. USDT).", { param: "currency" });
        return flatBalanceView(deps.store.read, auth.accountId, auth.livemode, currency);
      },
      {
        query: t.Object({ currency: t.Optional(t.String({ description: "ISO 4217 code (e.g. BRL), or a currency the account holds (e.g. USDT); case-insensitive." })) }),
        detail: op({
          tags: ["wallets"],
          summary: "Balance of the account (all currencies, or one with ?currency=)",
          description: "Minor units. Without `currency`: the full shape (primary currency BRL flat, plus `balances` and `primary`); with it: the flat single-currency shape.",
          security: "apikey",
          ok: { 200: Type.Union([FullBalanceSchema, FlatBalanceSchema]) },
          errors: [400, ...AUTH_ERRORS.apikey],
        }),
      },
    )
    .get("/v1/wallets", ({ auth }) => walletListView(deps.store.read, auth.accountId, auth.livemode), {
      // No query parameters: an unknown one (e.g. a `currency` filter) is a 400, never ignored.
      query: t.Object({}),
      detail: op({
        tags: ["wallets"],
        summary: "Operational wallets of the account, one per currency",
        security: "apikey",
        ok: { 200: Type.Array(WalletSchema) },
        errors: [400, ...AUTH_ERRORS.apikey],
      }),
    });
}
