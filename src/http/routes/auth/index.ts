/** Dashboard login, account, members, API keys and request logs (bearer-token routes). */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Accounts, dashboard login, API keys". */
export function authRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
