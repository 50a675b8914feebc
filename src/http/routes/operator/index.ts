/**
 * Operator API (COFRE_OPERATOR_TOKEN): account settings and MED rulings. Without the token no
 * operator route is mounted, so every one answers 404 (extensions.md "Running it").
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";
import { operatorAccountRoutes } from "./accounts";
import { operatorMedRoutes } from "./med";

export function operatorRoutes(deps: Deps) {
  if (!deps.config.operatorToken) return new Elysia();
  return new Elysia().use(operatorAccountRoutes(deps)).use(operatorMedRoutes(deps));
  // MED rulings: src/http/routes/operator/med.ts adds `.use(operatorMedRoutes(deps))` above,
  // each of its routes behind `.use(operatorAuth(deps))` from src/http/plugins/operator-auth.ts.
}
