/**
 * Operator API (COFRE_OPERATOR_TOKEN): account settings, MED rulings, Pix and card provider connections. Without the
 * token no operator route is mounted, so every one answers 404 (extensions.md "Running it"). Each
 * sub-group puts its routes behind `.use(operatorAuth(deps))` (src/http/plugins/operator-auth.ts).
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { operatorAccountRoutes } from "./accounts";
import { operatorMedRoutes } from "./med";
import { operatorPixProviderRoutes } from "./pix-provider";
import { operatorCardProviderRoutes } from "./card-provider";

export function operatorRoutes(deps: Deps) {
  if (!deps.config.operatorToken) return new Elysia();
  return new Elysia()
    .use(operatorAccountRoutes(deps))
    .use(operatorMedRoutes(deps))
    .use(operatorPixProviderRoutes(deps))
    .use(operatorCardProviderRoutes(deps));
}
