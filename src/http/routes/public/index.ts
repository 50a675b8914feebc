/** Unauthenticated pages and files: checkout page, QR PNG, Pix location payload. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Pix charges end to end". */
export function publicRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
