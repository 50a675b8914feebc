/** /v1/med/cases and the alias /v1/infractions; evidence uploads. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "MED dispute cases". */
export function medRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
