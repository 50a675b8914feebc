/** GET /v1/wallets/balance and GET /v1/wallets. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Ledger and wallets". */
export function walletRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
