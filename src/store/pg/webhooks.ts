/** PostgreSQL implementation of the webhooks repository (src/store/port/webhooks.ts). NOT BUILT YET: every method throws. */
import type { WebhooksRepo } from "../port/webhooks";
import type { PgContext } from "./context";
import { notBuilt } from "./not-built";

/** Builds the webhooks repository on `ctx`. */
export function webhooksRepo(_ctx: PgContext): WebhooksRepo {
  return notBuilt<WebhooksRepo>("webhooks");
}
