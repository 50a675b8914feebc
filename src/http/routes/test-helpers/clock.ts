/** POST /v1/test_helpers/clock/advance: moves the service clock the way time moves and runs what became due. */
import { Elysia } from "elysia";
import { StrictInt, StrictObject } from "../../schemas";
import type { SchedulerDeps } from "../../../jobs/deps";
import { testModeOnly } from "./test-mode";
import { iso } from "../../../lib/clock";
import { advanceClock, MAX_ADVANCE_JOBS } from "../../../jobs/advance";
import { DateTime, View } from "../../../lib/view-schema";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const ClockSchema = View("ClockAdvanced", { now: DateTime({ description: "The service clock after the move." }) });

/**
 * Exists only with COFRE_TEST_CLOCK=1 (extensions.md); otherwise the path answers 404.
 * Body `{seconds: integer 1..315360000}` -> 200 `{now}` (ISO 8601) once the clock reached
 * now + seconds. One advance has the effect of waiting: due work runs in time order, the clock
 * stepping to each job's due time (so a sandbox refund goes PENDING -> IN_PROGRESS -> REFUNDED,
 * a failing webhook is retried on its schedule with each attempt stamped at its own time, and
 * tranches are released, all within one call). At most MAX_ADVANCE_JOBS (10,000) jobs run per
 * call: past that the clock still jumps to the target, a warning is logged, and the rest of the
 * due work runs right after, in due order, stamped at the time it runs (src/jobs/advance.ts).
 * Concurrent advances run one after the other. 401/403 `test_mode_only` like every helper.
 */
export function clockTestHelperRoutes(deps: SchedulerDeps) {
  if (!deps.config.testClock) return new Elysia();
  return new Elysia().use(testModeOnly(deps)).post(
    "/v1/test_helpers/clock/advance",
    async ({ body }) => {
      const r = await advanceClock(deps.clock, deps.jobs, body.seconds);
      // Several instances on PostgreSQL: the others move to the same time (src/store/pg/clock-share.ts).
      await deps.clockShare?.publish();
      if (r.capped)
        deps.logger.warn(
          { seconds: body.seconds, jobs: r.jobs, max: MAX_ADVANCE_JOBS },
          "clock advance hit its job cap; the remaining due work runs after it",
        );
      return { now: iso(deps.clock.now()) };
    },
    {
      body: StrictObject({
        seconds: StrictInt({
          minimum: 1,
          maximum: 10 * 365 * 86400,
          description: "Seconds to move forward (1 to 10 years).",
        }),
      }),
      detail: op({
        tags: ["test_helpers"],
        summary: "Advance the service clock (COFRE_TEST_CLOCK=1 only)",
        description:
          "Moves the clock forward by `seconds` the way time moves: due work (expiries, tranche releases, refund steps, webhook retries) runs in time order, the clock stepping to each due time, including work scheduled by work that ran during the advance. At most 10,000 jobs per call; past that the clock still reaches the target and the remaining due work runs right after. Without COFRE_TEST_CLOCK=1 the route answers 404.",
        security: "apikey",
        ok: { 200: ClockSchema },
        // 404: the route is not mounted without COFRE_TEST_CLOCK=1.
        errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404],
        requestExample: { seconds: 3600 },
      }),
    },
  );
}
