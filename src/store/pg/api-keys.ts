/** PostgreSQL implementation of the apiKeys repository (src/store/port/api-keys.ts). NOT BUILT YET: every method throws. */
import type { ApiKeysRepo } from "../port/api-keys";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the apiKeys repository on `ctx`. */
export function apiKeysRepo(_ctx: PgContext): ApiKeysRepo {
  return notBuilt<ApiKeysRepo>("apiKeys");
}
