/** Helpers of the benches that run `bun src/main.ts serve` from source: wrk check, key seeding, readiness. */
import { accounts, apiKeys } from "../../db/schema";
import { createDeps } from "../../src/deps";
import { newId } from "../../src/lib/ids";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import { sqliteDbOf } from "../../src/store/sqlite";

/** Exits 1 with a hint when `wrk` is not installed. */
export function requireWrk(): void {
  if (Bun.which("wrk")) return;
  console.error("bench: wrk not found; install it with `apt-get install -y wrk`");
  process.exit(1);
}

/** Seeds an account and a test key straight into the database of `dataDir`; returns the key in clear. */
export function seedTestKey(dataDir: string): string {
  const deps = createDeps({ dataDir, config: { logLevel: "silent" } });
  const now = Date.now();
  const accountId = newId("account");
  const key = `ak_test_${randomBase64Url(24)}`;
  sqliteDbOf(deps.store).insert(accounts).values({ id: accountId, name: "Bench", createdAt: now }).run();
  sqliteDbOf(deps.store)
    .insert(apiKeys)
    .values({
      id: newId("apiKey"),
      accountId,
      mode: "test",
      fingerprint: sha256Hex(key),
      prefix: key.slice(0, 12),
      label: "bench",
      createdAt: now,
    })
    .run();
  sqliteDbOf(deps.store).$client.close();
  return key;
}

/** Polls `url` every 50 ms until it answers 200 (10 s at most); throws otherwise. */
export async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`${url} did not become ready`);
}
