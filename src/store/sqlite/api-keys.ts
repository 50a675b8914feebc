/** SQLite implementation of the apiKeys repository (src/store/port/api-keys.ts). */
import type { ApiKeysRepo } from "../port/api-keys";
import type { SqliteContext } from "./context";

/** Builds the apiKeys repository on the adapter's connection `ctx`. */
export function apiKeysRepo(ctx: SqliteContext): ApiKeysRepo {
  void ctx;
  return {};
}
