/**
 * Devoluções through a bcb_pix_v2 PSP (OpenAPI `PUT|GET /pix/{e2eid}/devolucao/{id}`, schemas
 * `DevolucaoSolicitada` `{valor, natureza?, descricao?}` and `Devolucao`; extensions.md "Live Pix
 * over the BCB API Pix (v2)": Refund): merchant refunds (`id` = the refund id without `re_`,
 * body `{valor}`) and the return of a Pix that must go back (`id` = the devolution id `D...` the
 * domain recorded, body `{valor, natureza: "ORIGINAL"}`: the whole Pix).
 * The standard has no payment initiation, so a refund here is always a devolução of the original
 * Pix: `strategy: "cashout"` or a `destinationKey` is `not_supported` (400 REFUND_NOT_SUPPORTED).
 *
 * Status table (`Devolucao.status` -> RefundOutcome -> refund status):
 *   EM_PROCESSAMENTO  -> pending, inProgress, checkAt = next check   -> IN_PROGRESS
 *                        (15 s, 1 min, 5 min after the request, then every 15 min)
 *   DEVOLVIDO         -> settled                                      -> REFUNDED
 *   NAO_REALIZADO     -> rejected, code NAO_REALIZADO, message `motivo` -> FAILED (balance and
 *                        refundable remainder restored by applyRefundStatus)
 *   anything else     -> invalid `unknown_status` (nothing changes; checked again later)
 * Failures (client.ts results): timeout, network, 429 and 5xx -> retryable (the job retries the
 * same id); auth_failed -> auth_failed (retried later, logged). A PUT answered with another 4xx
 * (e.g. `PixDevolucaoInvalida`: the id is already used, after a crash or a lost answer) is
 * resolved with a GET of the same id: the devolução found with our `valor` is ours and maps
 * through the table; otherwise the PSP refused it for good -> rejected (code = problem name).
 * A GET 404 (`PixDevolucaoNaoEncontrada`) -> invalid (checked again later).
 */
import type {
  ProviderContext,
  ProviderFailure,
  RefundOutcome,
  RefundPlan,
  RefundPlanRequest,
} from "../../domain/providers/types";
import type { BcbPixClient } from "./client";
import { failureOf } from "./failures";
import { toValor } from "./valor";

/** The devolução `id` pattern of the standard (`[a-zA-Z0-9]{1,35}`). */
export const DEVOLUCAO_ID_RE = /^[a-zA-Z0-9]{1,35}$/;
/** Delays of the first checks of a devolução in progress, from its request, ms (15 s, 1 min, 5 min). */
export const DEVOLUCAO_STEPS_MS = [15_000, 60_000, 300_000] as const;
/** Delay between later checks, ms (15 min). */
export const DEVOLUCAO_EVERY_MS = 900_000;

/** The parts of `Devolucao` we read. */
export interface DevolucaoAnswer {
  id?: string;
  rtrId?: string;
  valor?: string;
  natureza?: string;
  status?: string;
  motivo?: string;
}

/** The next check (epoch ms, > now) of a devolução requested at `requestedAt`, seen at `now`. */
export function nextDevolucaoCheckAt(requestedAt: number, now: number): number {
  let at = requestedAt;
  for (const step of DEVOLUCAO_STEPS_MS) {
    at += step;
    if (at > now) return at;
  }
  return at + (Math.floor((now - at) / DEVOLUCAO_EVERY_MS) + 1) * DEVOLUCAO_EVERY_MS;
}

/** A `Devolucao` as a RefundOutcome (the module's status table). */
export function devolucaoOutcome(
  d: DevolucaoAnswer | null | undefined,
  requestedAt: number,
  now: number,
): RefundOutcome {
  switch (d?.status) {
    case "EM_PROCESSAMENTO":
      return { status: "pending", inProgress: true, checkAt: nextDevolucaoCheckAt(requestedAt, now) };
    case "DEVOLVIDO":
      return { status: "settled" };
    case "NAO_REALIZADO":
      return {
        status: "rejected",
        code: "NAO_REALIZADO",
        message: d.motivo?.trim() || "The PSP did not make the devolução.",
      };
    default:
      return { status: "invalid", code: "unknown_status", message: "The PSP answered an unknown devolução status." };
  }
}

/** The devolução of a refund: Pix only, never a cashout or another destination (see the header). */
export function planDevolucao(ctx: ProviderContext, req: RefundPlanRequest): RefundPlan {
  if (req.strategy === "cashout" || req.destinationKey !== undefined)
    return {
      status: "not_supported",
      code: "cashout_not_available",
      message:
        "The BCB API Pix has no payment initiation: a refund through this Pix provider can only be a devolução of the original Pix to its payer (omit strategy and destinationKey).",
    };
  if (req.method !== "PIX" || !req.transaction.endToEndId)
    return {
      status: "not_supported",
      code: "no_end_to_end_id",
      message: "Only a received Pix (with its end-to-end id) can be refunded through this Pix provider.",
    };
  const id = req.refundId.startsWith("re_") ? req.refundId.slice(3) : req.refundId;
  if (!DEVOLUCAO_ID_RE.test(id))
    return { status: "not_supported", code: "bad_devolucao_id", message: "The refund id cannot name a devolução." };
  return { status: "pending", checkAt: ctx.clock.nowMs(), strategy: "devolution", providerRefundId: id };
}

/** What one devolução call needs: the Pix, our id, the body, and when it was requested. */
export interface DevolucaoCall {
  endToEndId: string | null;
  id: string | null;
  body: { valor: string; natureza?: "ORIGINAL" };
  /** Epoch ms the devolução was asked for (the checks' backoff counts from it). */
  requestedAt: number;
}

const noTarget = (): ProviderFailure => ({
  status: "invalid",
  code: "no_devolucao_target",
  message: "The devolução has no end-to-end id or id.",
});

/** `PUT /pix/{e2eid}/devolucao/{id}`, idempotent per id (see the header for a 4xx). */
export async function putDevolucao(client: BcbPixClient, now: number, c: DevolucaoCall): Promise<RefundOutcome> {
  if (!c.endToEndId || !c.id) return noTarget();
  const path = `/pix/${c.endToEndId}/devolucao/${c.id}`;
  const r = await client.call<DevolucaoAnswer>("PUT", path, { body: c.body });
  if (r.kind === "ok") return devolucaoOutcome(r.body, c.requestedAt, now);
  const failure = failureOf(r, "rejected");
  if (failure.status !== "rejected") return failure;
  // The id may already be ours (a replay after a crash or a lost answer): the GET decides.
  const found = await client.call<DevolucaoAnswer>("GET", path);
  if (found.kind === "ok" && found.body?.valor === c.body.valor)
    return devolucaoOutcome(found.body, c.requestedAt, now);
  if (found.kind !== "ok" && found.kind !== "http_error") return failureOf(found, "invalid");
  if (found.kind === "http_error" && (found.status >= 500 || found.status === 429)) return failureOf(found, "invalid");
  return failure;
}

/** `GET /pix/{e2eid}/devolucao/{id}`. */
export async function getDevolucao(
  client: BcbPixClient,
  now: number,
  c: Omit<DevolucaoCall, "body">,
): Promise<RefundOutcome> {
  if (!c.endToEndId || !c.id) return noTarget();
  const r = await client.call<DevolucaoAnswer>("GET", `/pix/${c.endToEndId}/devolucao/${c.id}`);
  return r.kind === "ok" ? devolucaoOutcome(r.body, c.requestedAt, now) : failureOf(r, "invalid");
}

/** `valor` of a devolução of `centavos`. */
export const devolucaoValor = (centavos: number): string => toValor(centavos);
