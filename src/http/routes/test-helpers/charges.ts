/** Sandbox test helpers for charges: pay, provider_faults. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Pix charges end to end". */
export function chargeTestHelperRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
