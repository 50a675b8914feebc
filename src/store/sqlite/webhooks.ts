/** SQLite implementation of the webhooks repository (src/store/port/webhooks.ts). */
import type { WebhooksRepo } from "../port/webhooks";
import type { SqliteContext } from "./context";

/** Builds the webhooks repository on the adapter's connection `ctx`. */
export function webhooksRepo(ctx: SqliteContext): WebhooksRepo {
  void ctx;
  return {};
}
