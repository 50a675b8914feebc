/** SQLite implementation of the pixProvider repository (src/store/port/pix-provider.ts). */
import type { PixProviderRepo } from "../port/pix-provider";
import type { SqliteContext } from "./context";

/** Builds the pixProvider repository on the adapter's connection `ctx`. */
export function pixProviderRepo(ctx: SqliteContext): PixProviderRepo {
  void ctx;
  return {};
}
