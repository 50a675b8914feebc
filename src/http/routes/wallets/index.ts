/**
 * GET /v1/wallets/balance, GET /v1/wallets (interface.md "Wallets") and GET /v1/wallets/statement (extensions.md
 * "Statement, exports and reconciliation"); apikey (or dashboard session) auth, read-only.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { apiKeyAuth } from "../../plugins/api-key-auth";
import { ApiError } from "../../errors";
import {
  FlatBalanceSchema,
  FullBalanceSchema,
  WalletSchema,
  flatBalanceView,
  fullBalanceView,
  walletCurrency,
  walletListView,
} from "../../../domain/ledger/views";
import { AUTH_ERRORS, op } from "../../openapi";
import { Type } from "../../../lib/view-schema";
import {
  exportStatement,
  listStatement,
  parseStatementQuery,
  type StatementFormat,
} from "../../../domain/ledger/statement";
import { STATEMENT_EXPORT_EXAMPLES } from "../../../domain/ledger/statement-formats";
import { STATEMENT_LINE_TYPES, StatementListSchema } from "../../../domain/ledger/statement-views";
import { acceptsExplicitly } from "../../accept";
import { singleQuery } from "../../query";

/**
 * Wallet routes. Without `currency`: the full balance shape; with `currency=<ISO 4217>`: the flat
 * single-currency shape; a malformed or unknown code (neither ISO 4217 nor held, e.g. USDT) -> 400 `invalid_currency`.
 * Missing or invalid key -> 401 (never 404). Balances are those of the key's mode only.
 */
export function walletRoutes(deps: Deps) {
  return new Elysia()
    .use(apiKeyAuth(deps))
    .get(
      "/v1/wallets/balance",
      async ({ auth, query, request }) => {
        if (query.currency === undefined) return fullBalanceView(deps.store.read, auth.accountId, auth.livemode);
        const repeated = new URL(request.url).searchParams.getAll("currency").length > 1;
        const currency = repeated
          ? null
          : await walletCurrency(deps.store.read, auth.accountId, auth.livemode, query.currency);
        if (!currency)
          throw new ApiError(
            "invalid_currency",
            "currency must be a known ISO 4217 code (e.g. BRL) or a currency the account holds (e.g. USDT).",
            { param: "currency" },
          );
        return flatBalanceView(deps.store.read, auth.accountId, auth.livemode, currency);
      },
      {
        query: t.Object({
          currency: t.Optional(
            t.String({
              description: "ISO 4217 code (e.g. BRL), or a currency the account holds (e.g. USDT); case-insensitive.",
            }),
          ),
        }),
        detail: op({
          tags: ["wallets"],
          summary: "Balance of the account (all currencies, or one with ?currency=)",
          description:
            "Minor units. Without `currency`: the full shape (primary currency BRL flat, plus `balances` and `primary`); with it: the flat single-currency shape.",
          security: "apikey",
          ok: { 200: Type.Union([FullBalanceSchema, FlatBalanceSchema]) },
          errors: [400, ...AUTH_ERRORS.apikey],
        }),
      },
    )
    .get(
      "/v1/wallets/statement",
      async ({ auth, request }) => {
        const accept = request.headers.get("accept");
        const format: StatementFormat | undefined = acceptsExplicitly(accept, "text/csv")
          ? "csv"
          : acceptsExplicitly(accept, "application/x-ofx")
            ? "ofx"
            : undefined;
        const req = await parseStatementQuery(deps, auth, singleQuery(request), format);
        if (!format) return listStatement(deps, auth, req);
        const out = await exportStatement(deps, auth, req, format);
        return new Response(out.body, {
          headers: {
            "content-type": out.contentType,
            "content-disposition": `attachment; filename="${out.filename}"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        detail: op({
          tags: ["wallets"],
          summary: "Statement (extrato) of the wallet's total, as JSON pages, CSV or OFX",
          description: `The journal of the wallet's \`total\` (available + pending) of the primary currency (BRL) in the key's mode, newest first, read from the ledger: one line per movement, \`type\` one of ${STATEMENT_LINE_TYPES.join(", ")}; \`amount\` signed centavos, \`balance_after\` the total right after the line, \`available_on\` when the amount is or was available (a pending amount becoming available is not a line). The lines of any period add up to the change of \`total\` over it. With \`Accept: text/csv\` the whole period as CSV (RFC 4180, UTF-8, header row, the same fields); with \`Accept: application/x-ofx\` as OFX 1.0.2 SGML (CURDEF BRL, STMTTRN CREDIT/DEBIT, TRNAMT in reais, FITID = the line id, stable across exports; LEDGERBAL = the total at the period's end). Exports stream and refuse \`limit\`/\`starting_after\` (400). Bad dates, from after to, unknown parameters -> 400; a cursor that is not one of your lines -> 400 \`invalid_cursor\`.`,
          security: "apikey",
          ok: {
            200: [
              StatementListSchema,
              {
                content: "text/csv",
                description: "The period as CSV (with `Accept: text/csv`), an attachment `extrato-<from>-<to>.csv`.",
                schema: { type: "string", example: STATEMENT_EXPORT_EXAMPLES.csv },
              },
              {
                content: "application/x-ofx",
                description:
                  "The period as OFX 1.0.2 SGML (with `Accept: application/x-ofx`), an attachment `extrato-<from>-<to>.ofx`.",
                schema: { type: "string", example: STATEMENT_EXPORT_EXAMPLES.ofx },
              },
            ],
          },
          errors: [400, ...AUTH_ERRORS.apikey],
          query: [
            {
              name: "from",
              description: "First São Paulo day (YYYY-MM-DD), inclusive; default: the first movement.",
              schema: { type: "string", format: "date", example: "2026-11-01" },
            },
            {
              name: "to",
              description: "Last São Paulo day (YYYY-MM-DD), inclusive; default: now.",
              schema: { type: "string", format: "date", example: "2026-11-30" },
            },
            {
              name: "limit",
              description: "1-100, default 25 (JSON only).",
              schema: { type: "integer", minimum: 1, maximum: 100, example: 100 },
            },
            {
              name: "starting_after",
              description: "A line id (`sl_...`, `next_cursor`): the page after it (JSON only).",
              schema: { type: "string", example: "sl_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a_0" },
            },
          ],
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
