/**
 * A PSP's payment callback to a connection (extensions.md "Live Pix over the BCB API Pix (v2)":
 * `POST /v1/provider-webhooks/pix/{connection_id}/pix`, body `{pix: [...]}`): only a hint. Each
 * entry whose txid is a live charge of the connection's account gets a status check queued now
 * (src/domain/charges/outcomes.ts), which confirms with the connection's own credentials
 * (`GET /pix/{e2eid}`, else `GET /cob/{txid}`) before anything changes; other entries are
 * ignored and logged. No network here, so the route answers at once.
 */
import type { Deps } from "../../deps";
import { notFound } from "../errors";
import { acceptNotification, type NotificationResult } from "../charges/notifications";
import { findConnection } from "./repo";

/**
 * Takes callback `body` addressed to connection `connectionId` (deleted ones too: their charges
 * keep settling). Throws 404 `not_found` (no such connection), 400 `invalid_request` (no pix list).
 */
export async function acceptPixCallback(deps: Deps, connectionId: string, body: unknown): Promise<NotificationResult> {
  const conn = findConnection(deps.db, connectionId);
  const provider = conn && deps.providers.forConnection(conn.id);
  if (!conn || !provider) throw notFound("Pix provider connection");
  const result = await acceptNotification(deps, { accountId: conn.accountId, livemode: true }, provider, "PIX", body);
  deps.logger.info({ connection_id: conn.id, accepted: result.accepted, unknown: result.unknown }, "pix provider: callback queued for confirmation");
  return result;
}
