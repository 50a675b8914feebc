/** POST /v1/test_helpers/clock/advance: moves the service clock and runs what became due. */
import { Elysia } from "elysia";
import { StrictInt, StrictObject } from "../../schemas";
import type { Deps } from "../../../deps";
import { testModeOnly } from "./test-mode";
import { iso } from "../../../lib/clock";
import { DateTime, View } from "../../../lib/view-schema";
import { AUTH_ERRORS, BODY_ERRORS, op } from "../../openapi";

const ClockSchema = View("ClockAdvanced", { now: DateTime({ description: "The service clock after the move." }) });

/** Exists only with COFRE_TEST_CLOCK=1 (extensions.md); otherwise the path answers 404. */
export function clockTestHelperRoutes(deps: Deps) {
  if (!deps.config.testClock) return new Elysia();
  return new Elysia().use(testModeOnly(deps)).post(
    "/v1/test_helpers/clock/advance",
    async ({ body }) => {
      deps.clock.advance(body.seconds);
      await deps.jobs.drain();
      return { now: iso(deps.clock.now()) };
    },
    {
      body: StrictObject({ seconds: StrictInt({ minimum: 1, maximum: 10 * 365 * 86400, description: "Seconds to move forward (1 to 10 years)." }) }),
      detail: op({
        tags: ["test_helpers"],
        summary: "Advance the service clock (COFRE_TEST_CLOCK=1 only)",
        description: "Moves the service clock and runs every job that became due. Without COFRE_TEST_CLOCK=1 the route answers 404.",
        security: "apikey",
        ok: { 200: ClockSchema },
        // 404: the route is not mounted without COFRE_TEST_CLOCK=1.
        errors: [...BODY_ERRORS, ...AUTH_ERRORS.apikey, 403, 404],
        requestExample: { seconds: 3600 },
      }),
    },
  );
}
