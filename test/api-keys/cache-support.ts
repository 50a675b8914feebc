/** Helpers for the key-cache tests: fixed cleartext keys inserted as rows, and cache probes. */
import { apiKeys } from "../../db/schema";
import { newId } from "../../src/lib/ids";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import type { Harness } from "../support/harness";
import { dbOf } from "../support/db";

/** A well-formed cleartext key of `mode` (random unless `body` (32 base64url chars) is given). */
export function cleartext(mode: "test" | "live" = "test", body = randomBase64Url(24)): string {
  return `ak_${mode}_${body}`;
}

/** Inserts an active key row for `clear` into `accountId` (as another writer would); returns its id. */
export function insertKeyRow(h: Harness, accountId: string, clear: string): string {
  const id = newId("apiKey");
  const mode = clear.startsWith("ak_live_") ? "live" : "test";
  dbOf(h.deps).insert(apiKeys).values({ id, accountId, mode, fingerprint: sha256Hex(clear), prefix: clear.slice(0, 12), label: "row", createdAt: h.clock.nowMs() }).run();
  return id;
}

/** The id of the seeded key `clear` (seeded keys are not returned with their ids). */
export function keyIdOf(h: Harness, clear: string): string {
  return (dbOf(h.deps).$client.query("select id from api_keys where fingerprint = ?").get(sha256Hex(clear)) as { id: string }).id;
}
