/** SQLite implementation of the med repository (src/store/port/med.ts). */
import type { MedRepo } from "../port/med";
import type { SqliteContext } from "./context";

/** Builds the med repository on the adapter's connection `ctx`. */
export function medRepo(ctx: SqliteContext): MedRepo {
  void ctx;
  return {};
}
