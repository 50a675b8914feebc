/** Sandbox test helpers for MED: open, resolve, request_evidence. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "MED dispute cases". */
export function medTestHelperRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
