/** PostgreSQL implementation of the med repository (src/store/port/med.ts). NOT BUILT YET: every method throws. */
import type { MedRepo } from "../port/med";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the med repository on `ctx`. */
export function medRepo(_ctx: PgContext): MedRepo {
  return notBuilt<MedRepo>("med");
}
