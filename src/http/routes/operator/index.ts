/** Operator API (COFRE_OPERATOR_TOKEN): account settings and MED rulings. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Accounts, dashboard login, API keys". */
export function operatorRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
