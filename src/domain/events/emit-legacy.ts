/**
 * TRANSITIONAL (issue 16): `emit*` for callers still inside a synchronous `tx(deps.db, (t) => ...)`
 * (they get the `evt_` id back at once). The same steps as emit.ts `storeInUnit`, on the SQLite
 * repositories whose calls settle before they return (src/store/sqlite/legacy-sync.ts). Goes when
 * the last caller passes a uow.
 */
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { legacyOutbox, settled } from "../../store/sqlite/legacy-sync";
import { findScoped } from "../charges/repo";
import { deliverJob, deliveryRows, needsWebhookUrl, pickTargets } from "../webhooks/fanout";
import { randomHex } from "../../lib/crypto";
import { eventRow, type BuildEnvelope, type EventScope, type StoredEvent } from "./emit";

/** Stores the event (when somebody is to be told) and fans it out, synchronously; returns the `evt_` id. */
export function storeLegacy(deps: Deps, scope: EventScope, type: string, family: StoredEvent["family"], build: BuildEnvelope): string {
  const o = legacyOutbox(deps.store);
  const id = newId("event");
  const event = { accountId: scope.accountId, livemode: scope.livemode, type, family, transactionId: scope.transactionId ?? null, webhookUrl: scope.webhookUrl };
  const endpoints = settled(o.webhooks.activeEndpoints(event.accountId, event.livemode));
  const url = needsWebhookUrl(event) ? (findScoped(deps.db, event.accountId, event.livemode, event.transactionId!)?.webhookUrl ?? null) : (event.webhookUrl ?? null);
  const targets = pickTargets(endpoints, event, url);
  if (targets.length === 0) return id;
  const row = eventRow(deps, id, scope, type, family, build);
  settled(o.events.append(row));
  if (targets.some((t) => t.targetUrl !== null)) {
    const s = { accountId: row.accountId, livemode: row.livemode };
    if (!settled(o.webhooks.transactionSecret(s))) settled(o.webhooks.putTransactionSecret(s, randomHex(32), deps.clock.nowMs()));
  }
  const now = deps.clock.nowMs();
  const rows = deliveryRows(row, targets, now);
  settled(o.webhooks.insertDeliveries(rows));
  for (const r of rows) deps.jobs.enqueue(deps.db as unknown as Tx, deliverJob(r.id, now));
  return id;
}
