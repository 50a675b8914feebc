/**
 * Card provider events (extensions.md "Live cards and boletos through Stripe"; issue 26 §2):
 * `POST /v1/provider-webhooks/stripe/{connection_id}` and the periodic event sweep. An event is
 * taken only when its signature verifies with the connection's signing secret (the gateway runs
 * the official library's check over the raw body), once per event id (`card_provider_events`);
 * it is then only a hint: payments get a status check queued now (which retrieves the session or
 * PaymentIntent), refunds a refund status check, disputes a dispute check (`DISPUTE_CHECK_JOB`,
 * which retrieves the dispute). No network on the request path: the route answers 200 at once.
 */
import type { Deps } from "../deps";
import { DomainError, notFound } from "../errors";
import type { PaymentMethod } from "../charges/model";
import { acceptNotificationItems } from "../charges/notifications";
import type { CardProviderConnectionRow } from "../../store/rows";
import type { NotificationItem, PaymentProvider } from "../providers/types";
import { openCardConnection } from "./secrets";
import type { CardConnectionSpec } from "./port";
import { isIdOf } from "../../lib/ids";

/**
 * Job kind of a dispute confirmation; payload `{connectionId, disputeId}`, dedupe `card_provider.dispute_check:<dispute
 * id>`.
 */
export const DISPUTE_CHECK_JOB = "card_provider.dispute_check";
/** Job kind of the periodic event sweep (every EVENT_SWEEP_EVERY_MS). */
export const EVENT_SWEEP_JOB = "card_provider.event_sweep";
/** Period of the event sweep, ms (5 min). */
export const EVENT_SWEEP_EVERY_MS = 300_000;
/** How far back before the cursor each sweep lists again, seconds (events listed late are still seen). */
export const EVENT_SWEEP_OVERLAP_S = 1800;
/** Most pages one sweep of one connection reads (100 events each). */
const EVENT_SWEEP_MAX_PAGES = 20;

export interface EventResult {
  /** false when the event id was already handled (nothing done). */
  fresh: boolean;
  /** Payments whose status check was queued. */
  accepted: number;
  /** Disputes whose check was queued. */
  disputes: number;
}

async function connectionOf(
  deps: Deps,
  connectionId: string,
): Promise<{ conn: CardProviderConnectionRow; provider: PaymentProvider; spec: CardConnectionSpec }> {
  // Not even the shape of a connection id (a probe, a NUL byte PostgreSQL would refuse): 404 without a read.
  if (!isIdOf("cardProviderConnection", connectionId)) throw notFound("card provider connection");
  const conn = await deps.store.read.cardProvider.byId(connectionId);
  const provider = conn && deps.providers.forConnection(conn.id);
  if (!conn || !provider) throw notFound("card provider connection");
  return { conn, provider, spec: await openCardConnection(await deps.secretsKey, conn) };
}

/**
 * A webhook `rawBody` with header `signature` to connection `connectionId` (deleted ones too:
 * their payments keep settling). Throws 404 `not_found` (no such connection), 400
 * `invalid_request` (signature missing, wrong or too old: nothing changes).
 */
export async function acceptCardEvent(
  deps: Deps,
  connectionId: string,
  rawBody: string,
  signature: string | null,
): Promise<EventResult> {
  const { conn, provider, spec } = await connectionOf(deps, connectionId);
  if (!signature) throw new DomainError("invalid_request", "The Stripe-Signature header is missing.");
  const v = await deps.cardConnections.verify(spec, rawBody, signature, Math.floor(deps.clock.nowMs() / 1000));
  if (!v.ok) {
    deps.logger.warn(
      { connection_id: conn.id, reason: v.message },
      "card provider: an event with a bad signature was refused",
    );
    throw new DomainError("invalid_request", "The event's signature does not verify.");
  }
  return handleEvent(deps, conn, provider, { id: v.id, type: v.type, event: v.event });
}

/** Takes one verified event (webhook or sweep), once per event id. */
async function handleEvent(
  deps: Deps,
  conn: CardProviderConnectionRow,
  provider: PaymentProvider,
  e: { id: string; type: string; event: unknown },
): Promise<EventResult> {
  const parsed = provider.parseNotification(deps.providers.ctx, { body: e.event });
  if (parsed.status !== "parsed") throw new DomainError("invalid_request", parsed.message);
  const scope = { accountId: conn.accountId, livemode: true };
  const disputes = parsed.disputeIds ?? [];
  const now = deps.clock.nowMs();
  // The payments' confirmations are queued BEFORE the event id is recorded: a process killed in
  // between has recorded nothing, so Stripe's redelivery (or the event sweep) queues them again.
  // Recorded first, a kill there would leave the event "seen" with no check queued. Queuing twice
  // costs nothing: the checks are deduplicated jobs that confirm by retrieving the object.
  let accepted = 0;
  for (const [method, items] of byMethod(parsed.items))
    accepted += (await acceptNotificationItems(deps, scope, method, items)).accepted;
  // The event id is recorded with the dispute checks it asks for: a redelivery finds it and does nothing more.
  const fresh = await deps.store.tx(async (uow) => {
    if (!(await uow.cardProvider.recordEvent(conn.id, e.id, e.type, now))) return false;
    for (const disputeId of disputes)
      await deps.jobs.enqueueNoLaterThan(uow, {
        kind: DISPUTE_CHECK_JOB,
        payload: { connectionId: conn.id, disputeId },
        dueAt: now,
        dedupeKey: `${DISPUTE_CHECK_JOB}:${disputeId}`,
      });
    return true;
  });
  if (!fresh) return { fresh: false, accepted: 0, disputes: 0 };
  deps.logger.info(
    { connection_id: conn.id, event_id: e.id, type: e.type, accepted, disputes: disputes.length },
    "card provider: event queued for confirmation",
  );
  return { fresh: true, accepted, disputes: disputes.length };
}

/** Items grouped by the method they speak of (default CREDIT_CARD). */
function byMethod(items: NotificationItem[]): Map<PaymentMethod, NotificationItem[]> {
  const groups = new Map<PaymentMethod, NotificationItem[]>();
  for (const item of items) {
    const m = item.method ?? "CREDIT_CARD";
    groups.set(m, [...(groups.get(m) ?? []), item]);
  }
  return groups;
}

/**
 * The periodic event sweep (missed webhooks): per active connection, the provider's events created
 * since its cursor minus EVENT_SWEEP_OVERLAP_S, every page, each taken like a webhook (events
 * already handled are skipped); the cursor then moves to the newest event seen. A connection's
 * failure is logged and does not stop the others. Returns how many new events were taken.
 */
export async function sweepCardEvents(deps: Deps): Promise<number> {
  let taken = 0;
  for (const row of await deps.store.read.cardProvider.listActive()) {
    try {
      const { conn, provider, spec } = await connectionOf(deps, row.id);
      const since = Math.max(0, (conn.eventsSeenUntil ?? Math.floor(conn.createdAt / 1000)) - EVENT_SWEEP_OVERLAP_S);
      let newest = conn.eventsSeenUntil ?? 0;
      let after: string | undefined;
      for (let page = 0; page < EVENT_SWEEP_MAX_PAGES; page++) {
        const listed = await deps.cardConnections.listEvents(spec, since, after);
        if (!listed.ok) {
          deps.logger.warn(
            { connection_id: conn.id, reason: listed.message },
            "card provider: the event sweep could not list events",
          );
          break;
        }
        for (const e of listed.events) {
          newest = Math.max(newest, e.created);
          if ((await handleEvent(deps, conn, provider, e)).fresh) taken++;
        }
        if (!listed.hasMore || listed.events.length === 0) break;
        after = listed.events.at(-1)!.id;
      }
      if (newest > (conn.eventsSeenUntil ?? 0))
        await deps.store.tx((uow) => uow.cardProvider.setEventsSeenUntil(conn.id, newest));
    } catch (err) {
      deps.logger.warn(
        { connection_id: row.id, reason: (err as Error).message },
        "card provider: the event sweep failed",
      );
    }
  }
  return taken;
}
