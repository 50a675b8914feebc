/**
 * Every Pix provider connection row in memory, for the provider registry's synchronous lookups
 * (LiveConnectionReads, src/store/port/pix-provider.ts) on PostgreSQL, where no read is
 * synchronous. The table is tiny (one active row per connected account, plus replaced ones).
 *
 * Freshness: loaded before the store serves anything (the store's start gate, ./index.ts); a unit
 * that writes a connection updates these rows once it committed (`uow.afterCommit`, so this
 * instance sees its own write at once) and sends `pix_provider` on the cache channel in the same
 * transaction; every instance reloads on that notice, and on every (re)subscription to the
 * channel, since notices sent while the listener was down are lost.
 */
import type { SQL } from "bun";
import type { PixProviderConnectionRow } from "../rows";
import type { LiveConnectionReads } from "../port/pix-provider";
import { rowsOf } from "./map";

export class ConnectionCache implements LiveConnectionReads {
  private rows = new Map<string, PixProviderConnectionRow>();
  /** Bumped by every `put`: a load that started before a put must not overwrite it with older rows. */
  private version = 0;

  constructor(private readonly pool: SQL) {}

  /** Replaces the cached rows with the table's (one full read). */
  async load(): Promise<void> {
    const started = this.version;
    const rows = rowsOf<PixProviderConnectionRow>(await this.pool`select * from pix_provider_connections`);
    if (this.version !== started) return void (await this.load());
    this.rows = new Map(rows.map((r) => [r.id, r]));
  }

  /** Stores `row` as written by a committed unit of this instance. */
  put(row: PixProviderConnectionRow): void {
    this.version++;
    this.rows.set(row.id, row);
  }

  activeByAccount(accountId: string): PixProviderConnectionRow | undefined {
    for (const r of this.rows.values()) if (r.accountId === accountId && r.deletedAt === null) return r;
    return undefined;
  }

  byId(id: string): PixProviderConnectionRow | undefined {
    return this.rows.get(id);
  }
}
