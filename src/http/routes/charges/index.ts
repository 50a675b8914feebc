/** POST/GET /v1/charges, POST /v1/pix/charges. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Pix charges end to end". */
export function chargeRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
