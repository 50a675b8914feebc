/** PostgreSQL implementation of the pixProvider repository (src/store/port/pix-provider.ts). NOT BUILT YET: every method throws. */
import type { PixProviderRepo } from "../port/pix-provider";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the pixProvider repository on `ctx`. */
export function pixProviderRepo(_ctx: PgContext): PixProviderRepo {
  return notBuilt<PixProviderRepo>("pixProvider");
}
