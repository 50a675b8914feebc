/** /v1/test_helpers: sandbox-only helpers (extensions.md), one file per resource. */
import { Elysia } from "elysia";
import type { SchedulerDeps } from "../../../jobs/deps";
import { clockTestHelperRoutes } from "./clock";
import { chargeTestHelperRoutes } from "./charges";
import { medTestHelperRoutes } from "./med";
import { refundTestHelperRoutes } from "./refunds";
import { payoutTestHelperRoutes } from "./payouts";

/** The test helpers; `deps.jobs` is the scheduler itself (the clock advance runs it, ./clock.ts). */
export function testHelperRoutes(deps: SchedulerDeps) {
  return new Elysia()
    .use(clockTestHelperRoutes(deps))
    .use(chargeTestHelperRoutes(deps))
    .use(medTestHelperRoutes(deps))
    .use(refundTestHelperRoutes(deps))
    .use(payoutTestHelperRoutes(deps));
}
