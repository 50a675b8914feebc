/**
 * The route side of idempotency (issue "Runtime foundation" part 6): every money-moving POST
 * wraps its use case in `idempotent(...)`.
 *
 * Usage inside an `apiKeyAuth` group:
 * ```ts
 * .post("/v1/charges", (ctx) =>
 *   idempotent(deps, ctx, "POST /v1/charges", (claim) =>
 *     deps.store.tx(async (uow) => {
 *       const view = await createCharge(uow, ...);                 // the side effect
 *       await deps.idempotency.complete(uow, claim, 201, view);    // the record, same unit of work
 *       return { status: 201, body: view };
 *     }),
 *   ), { body: ChargeBody })
 * ```
 * Behaviour: the `Idempotency-Key` header is required and must be 8-128 printable characters
 * (400 `idempotency_key_missing` / `invalid_idempotency_key`); the same key with the same body
 * replays the stored status and body with header `Idempotent-Replayed: true`; with a different
 * body -> 409 `idempotency_key_reused`; while the first request runs -> 409
 * `idempotency_key_in_use` with `Retry-After`. When `work` throws, nothing is stored and the key
 * can be retried. Body validation runs before the handler, so validation failures are never stored.
 */
import type { Deps } from "../domain/deps";
import type { Claim } from "../domain/idempotency/store";
import { checkIdempotencyKey } from "../domain/idempotency/store";
import type { ApiKeyAuth } from "./plugins/api-key-auth";

/** The parts of an Elysia handler context `idempotent` uses. */
export interface IdempotentContext {
  request: Request;
  set: { status?: number | string; headers: Record<string, string | number> };
  auth: Pick<ApiKeyAuth, "accountId" | "livemode">;
  body?: unknown;
}

export interface IdempotentOptions {
  /** The key to use instead of the `Idempotency-Key` header (e.g. a refund's `idempotencyKey` field). */
  key?: unknown;
  /** Name used in errors about the key (default `Idempotency-Key`). */
  param?: string;
  /** What identifies "the same request" (default: the parsed body). */
  fingerprint?: unknown;
}

/** Result of the wrapped work: the status and JSON body to send (and to store). */
export interface IdempotentResult {
  status: number;
  body: unknown;
}

/** Response header set on a replayed response. */
export const REPLAY_HEADER = "Idempotent-Replayed";

/**
 * Runs `work` once per (account, mode, `scope`, key); sets `ctx.set.status` (and the replay
 * header on a replay) and returns the body for Elysia to send. `work` should call
 * `deps.idempotency.complete(uow, claim, status, body)` inside its business unit of work; when it
 * does not, the result is stored right after it returns.
 * Throws ApiError 400 (bad or missing key) or 409 (reused / in use); rethrows what `work` throws.
 */
export async function idempotent(
  deps: Pick<Deps, "idempotency">,
  ctx: IdempotentContext,
  scope: string,
  work: (claim: Claim) => Promise<IdempotentResult> | IdempotentResult,
  opts: IdempotentOptions = {},
): Promise<unknown> {
  const param = opts.param ?? "Idempotency-Key";
  const raw = "key" in opts ? opts.key : ctx.request.headers.get("idempotency-key");
  const key = checkIdempotencyKey(raw ?? undefined, param);
  const result = await deps.idempotency.run(
    {
      accountId: ctx.auth.accountId,
      livemode: ctx.auth.livemode,
      scope,
      key,
      body: "fingerprint" in opts ? opts.fingerprint : (ctx.body ?? null),
    },
    work,
  );
  ctx.set.status = result.status;
  if (result.replayed) ctx.set.headers[REPLAY_HEADER] = "true";
  return result.body;
}
