/**
 * Every card provider connection row in memory, for the provider registry's synchronous lookups
 * (LiveCardConnectionReads, src/store/port/card-provider.ts) on PostgreSQL, where no read is
 * synchronous. Same freshness rules as the Pix connections' cache (./connection-cache.ts): loaded
 * before the store serves anything, updated by this instance's committed writes, reloaded by every
 * instance on the `card_provider` notice and on every (re)subscription.
 */
import type { SQL } from "bun";
import type { CardProviderConnectionRow } from "../rows";
import type { LiveCardConnectionReads } from "../port/card-provider";
import { rowsOf } from "./map";

/**
 * A store opened without migrating (`migrate: false`) on a database older than migration 0007 has
 * no such table yet (42P01 undefined_table): it has no card connection either, so nothing to cache.
 */
function noTableYet(err: unknown): never[] {
  if ((err as { errno?: string }).errno === "42P01") return [];
  throw err;
}

export class CardConnectionCache implements LiveCardConnectionReads {
  private rows = new Map<string, CardProviderConnectionRow>();
  /** Bumped by every `put`: a load that started before a put must not overwrite it with older rows. */
  private version = 0;

  constructor(private readonly pool: SQL) {}

  /** Replaces the cached rows with the table's (one full read). */
  async load(): Promise<void> {
    const started = this.version;
    const rows = rowsOf<CardProviderConnectionRow>(
      await this.pool`select * from card_provider_connections`.catch(noTableYet),
    );
    if (this.version !== started) return void (await this.load());
    this.rows = new Map(rows.map((r) => [r.id, r]));
  }

  /** Stores `row` as written by a committed unit of this instance. */
  put(row: CardProviderConnectionRow): void {
    this.version++;
    this.rows.set(row.id, row);
  }

  activeByAccount(accountId: string): CardProviderConnectionRow | undefined {
    for (const r of this.rows.values()) if (r.accountId === accountId && r.deletedAt === null) return r;
    return undefined;
  }

  byId(id: string): CardProviderConnectionRow | undefined {
    return this.rows.get(id);
  }
}
