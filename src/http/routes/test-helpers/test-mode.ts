/**
 * Test-mode guard of the sandbox helpers (extensions.md: a live key -> 403 `permission_error`,
 * code `test_mode_only`). Runs at `derive` like `apiKeyAuth` (key check first: 401), before body
 * validation, so a live key gets 403 whatever it sends. Gives handlers the same `auth`.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { authenticateApiKey, requireTestMode } from "../../plugins/api-key-auth";

/** `apiKeyAuth` plus the test-mode check (scoped to the routes of the instance that uses it). */
export function testModeOnly(deps: Deps) {
  return new Elysia().derive({ as: "scoped" }, async ({ request, set }) => {
    const auth = await authenticateApiKey(deps, request.headers.get("apikey"), request, set as never);
    requireTestMode(auth);
    return { auth };
  });
}
