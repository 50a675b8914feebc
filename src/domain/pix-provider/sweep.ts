/**
 * The sweep of received Pix (issue 14 §3; extensions.md "Live Pix": "missed callbacks are caught
 * ... by a periodic `GET /pix?inicio=&fim=` sweep"): every SWEEP_EVERY_MS (10 min) one recurring
 * job lists, per active connection, the Pix its PSP received in the last SWEEP_WINDOW_MS (30 min,
 * so consecutive windows overlap and a Pix listed late is still seen), all pages, and hands each
 * one to the same path as a callback (a status check confirms it before anything changes; a
 * charge already settled is skipped, so a Pix seen by several sweeps pays once).
 */
import type { Deps } from "../deps";
import { acceptNotificationItems } from "../charges/notifications";

export const PIX_SWEEP_JOB = "pix_provider.pix_sweep";
/** Period of the sweep, ms (10 min). */
export const SWEEP_EVERY_MS = 600_000;
/** Window each sweep lists, ms (30 min back from now). */
export const SWEEP_WINDOW_MS = 1_800_000;

export interface SweepResult {
  /** Connections listed (a failure is logged and counted out). */
  connections: number;
  /** Pix found that name a charge of the connection's account. */
  accepted: number;
  /** Pix found that name nothing of ours. */
  unknown: number;
}

/** One sweep at the clock's now over every active connection; a connection's failure does not stop the others. */
export async function sweepReceivedPix(deps: Deps): Promise<SweepResult> {
  const now = deps.clock.nowMs();
  const result: SweepResult = { connections: 0, accepted: 0, unknown: 0 };
  for (const conn of await deps.store.read.pixProvider.listActive()) {
    const provider = deps.providers.forConnection(conn.id);
    if (!provider?.listPayments) continue;
    try {
      const listed = await provider.listPayments(deps.providers.ctx, { from: now - SWEEP_WINDOW_MS, to: now });
      if (listed.status !== "listed") {
        deps.logger.warn(
          { connection_id: conn.id, code: listed.code, reason: listed.message },
          "pix provider: the Pix sweep could not list received Pix",
        );
        continue;
      }
      const r = await acceptNotificationItems(deps, { accountId: conn.accountId, livemode: true }, "PIX", listed.items);
      result.connections++;
      result.accepted += r.accepted;
      result.unknown += r.unknown;
    } catch (err) {
      deps.logger.warn(
        { connection_id: conn.id, reason: (err as Error).message },
        "pix provider: the Pix sweep failed",
      );
    }
  }
  return result;
}
