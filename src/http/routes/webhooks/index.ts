/** /v1/webhooks: endpoints, event catalog, deliveries, stats. */
import { Elysia } from "elysia";
import type { Deps } from "../../../deps";

/** Route group; filled by the issue "Webhooks". */
export function webhookRoutes(deps: Deps) {
  void deps;
  return new Elysia();
}
