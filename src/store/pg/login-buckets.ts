/**
 * Login buckets shared by every instance (src/store/port/login-buckets.ts; table
 * `login_throttle`). One attempt is one unit of work: transaction-scoped advisory locks on its
 * email and its address (taken in that order by every attempt, so two attempts never wait on
 * each other in a cycle), then its few buckets are read, the throttle's rules run on them, and
 * what the rules changed is written back. Exact across instances; costs one unit per login.
 */
import type { LoginBucket, LoginBucketStore, LoginBucketView } from "../port/login-buckets";
import type { PgStore } from "./index";
import { rowsOf } from "./map";

export class PgLoginBuckets implements LoginBucketStore {
  constructor(private readonly store: PgStore) {}

  async transact<T>(lockKeys: string[], keys: string[], now: number, fn: (view: LoginBucketView) => T): Promise<T> {
    await this.store.started;
    const result = (await this.store.sql.begin(async (tx) => {
      for (const k of lockKeys) await tx`select pg_advisory_xact_lock(hashtext('cofre_login'), hashtext(${k}))`;
      const rows = rowsOf<LoginBucket & { key: string }>(
        await tx`select key, count, reset_at, last_at from login_throttle where key = any(${keys})`,
      );
      const buckets = new Map(rows.map(({ key, ...b }) => [key, b as LoginBucket]));
      const changed = new Set<string>();
      const result = fn({
        get: (key) => buckets.get(key),
        set: (key, b) => {
          buckets.set(key, b);
          changed.add(key);
        },
        delete: (key) => {
          buckets.delete(key);
          changed.add(key);
        },
      });
      const gone = [...changed].filter((k) => !buckets.has(k));
      const kept = [...changed]
        .filter((k) => buckets.has(k))
        .map((k) => ({
          key: k,
          count: buckets.get(k)!.count,
          reset_at: buckets.get(k)!.resetAt,
          last_at: buckets.get(k)!.lastAt,
        }));
      if (gone.length) await tx`delete from login_throttle where key = any(${gone})`;
      if (kept.length)
        await tx`insert into login_throttle ${tx(kept)} on conflict (key) do update
          set count = excluded.count, reset_at = excluded.reset_at, last_at = excluded.last_at`;
      return result;
    })) as T;
    // Expired buckets of other emails and addresses: swept now and then by whoever logs in, after
    // its unit (two sweeps inside locked units could deadlock on the rows they both delete). A
    // failed sweep is left to the next one.
    if (Math.random() < 0.01) await this.store.sql`delete from login_throttle where reset_at <= ${now}`.catch(() => {});
    return result;
  }
}
