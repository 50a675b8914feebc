/** Helpers for the key-cache tests: fixed cleartext keys inserted as rows, and cache probes. */
import { newId } from "../../src/lib/ids";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import type { Harness } from "../support/harness";
import { testDb } from "../support/test-db";

/** A well-formed cleartext key of `mode` (random unless `body` (32 base64url chars) is given). */
export function cleartext(mode: "test" | "live" = "test", body = randomBase64Url(24)): string {
  return `ak_${mode}_${body}`;
}

/** Inserts an active key row for `clear` into `accountId` (as another writer would); returns its id. */
export async function insertKeyRow(h: Harness, accountId: string, clear: string): Promise<string> {
  const id = newId("apiKey");
  const mode = clear.startsWith("ak_live_") ? "live" : "test";
  await testDb(h.deps).run(
    "insert into api_keys (id, account_id, mode, fingerprint, prefix, label, created_at) values (?, ?, ?, ?, ?, 'row', ?)",
    id,
    accountId,
    mode,
    sha256Hex(clear),
    clear.slice(0, 12),
    h.clock.nowMs(),
  );
  return id;
}

/** The id of the seeded key `clear` (seeded keys are not returned with their ids). */
export async function keyIdOf(h: Harness, clear: string): Promise<string> {
  return (await testDb(h.deps).get<{ id: string }>("select id from api_keys where fingerprint = ?", sha256Hex(clear)))!
    .id;
}
