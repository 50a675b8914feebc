/** POST /v1/test_helpers/clock/advance: moves the service clock and runs what became due. */
import { Elysia } from "elysia";
import { StrictInt, StrictObject } from "../../schemas";
import type { Deps } from "../../../deps";
import { testModeOnly } from "./test-mode";
import { iso } from "../../../lib/clock";

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
      body: StrictObject({ seconds: StrictInt({ minimum: 1, maximum: 10 * 365 * 86400 }) }),
      detail: { tags: ["test_helpers"], summary: "Advance the service clock (COFRE_TEST_CLOCK=1 only)" },
    },
  );
}
