/** Sandbox test helper: advance a refund. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Payments group". */
export function refundTestHelperRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
