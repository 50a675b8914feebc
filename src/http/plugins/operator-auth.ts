/**
 * Operator API authentication (extensions.md "Operator API"): `Authorization: Bearer
 * <COFRE_OPERATOR_TOKEN>`, compared in constant time; anything else -> 401 `unauthorized`.
 * When the token is unset the operator routes are not mounted at all (404), see routes/operator.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../domain/deps";
import { safeEqual, sha256Hex } from "../../lib/crypto";
import { ApiError } from "../errors";

/** True when `header` is exactly `Bearer <token>` (digests compared, so length is not leaked). */
export function isOperatorAuthorized(token: string, header: string | null): boolean {
  return safeEqual(sha256Hex(header ?? ""), sha256Hex(`Bearer ${token}`));
}

/** `.use(operatorAuth(deps))`: later routes of the group require the operator token. */
export function operatorAuth(deps: Deps) {
  return new Elysia().derive({ as: "scoped" }, ({ request }) => {
    const token = deps.config.operatorToken;
    if (!token || !isOperatorAuthorized(token, request.headers.get("authorization")))
      throw new ApiError("unauthorized", "Missing or invalid operator token.");
    return { operator: true as const };
  });
}
