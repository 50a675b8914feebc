/** PostgreSQL implementation of the cardProvider repository (src/store/port/card-provider.ts). */
import type { CardProviderRepo } from "../port/card-provider";
import type { CardProviderConnectionRow } from "../rows";
import type { PgContext } from "./context";
import { rowOf, rowsOf, toColumns } from "./map";
import { noticePayload, NOTICE_CHANNEL } from "./notices";

/**
 * Builds the cardProvider repository on `ctx`. Writers refresh every instance's CardConnectionCache
 * (./card-connection-cache.ts).
 */
export function cardProviderRepo(ctx: PgContext): CardProviderRepo {
  const { sql } = ctx;
  const cache = ctx.shared.cardConnections;
  /** Once the unit commits: this instance's cache takes the rows at once, the others reload on the notice. */
  const publish = async (rows: CardProviderConnectionRow[]) => {
    await sql`select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("card_provider")})`;
    ctx.afterCommit(() => {
      for (const r of rows) cache.put(r);
    });
  };
  return {
    async activeByAccount(accountId) {
      return rowOf<CardProviderConnectionRow>(
        await sql`select * from card_provider_connections where account_id = ${accountId} and deleted_at is null`,
      );
    },
    async byId(id) {
      return rowOf<CardProviderConnectionRow>(await sql`select * from card_provider_connections where id = ${id}`);
    },
    async listActive() {
      return rowsOf<CardProviderConnectionRow>(
        await sql`select * from card_provider_connections where deleted_at is null`,
      );
    },
    async saveActive(row) {
      // Lock the account's connections first: two saves of one account never both stay active.
      await sql`select id from card_provider_connections where account_id = ${row.accountId} for update`;
      const retired = rowsOf<CardProviderConnectionRow>(
        await sql`update card_provider_connections set deleted_at = ${row.updatedAt}, updated_at = ${row.updatedAt}
          where account_id = ${row.accountId} and deleted_at is null and id <> ${row.id} returning *`,
      );
      const { createdAt: _created, ...changes } = row;
      const saved = rowOf<CardProviderConnectionRow>(
        await sql`insert into card_provider_connections ${sql(toColumns(row))}
          on conflict (id) do update set ${sql(toColumns({ ...changes, deletedAt: null }))} returning *`,
      )!;
      await publish([...retired, saved]);
    },
    async markDeleted(id, at) {
      const rows = rowsOf<CardProviderConnectionRow>(
        await sql`update card_provider_connections set deleted_at = ${at}, updated_at = ${at} where id = ${id} returning *`,
      );
      if (rows.length) await publish(rows);
    },
    async setEventsSeenUntil(id, seconds) {
      // The registry's cache does not read the cursor: no notice.
      await sql`update card_provider_connections set events_seen_until = ${seconds} where id = ${id}`;
    },
    async recordEvent(connectionId, eventId, type, at) {
      const rows = await sql`insert into card_provider_events (connection_id, event_id, type, received_at)
        values (${connectionId}, ${eventId}, ${type}, ${at}) on conflict do nothing returning event_id`;
      return rows.length > 0;
    },
  };
}
