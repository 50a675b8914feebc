/**
 * PostgreSQL implementation of the pixProvider repository (src/store/port/pix-provider.ts): live Pix provider
 * connections.
 */
import type { PixProviderRepo } from "../port/pix-provider";
import type { PixProviderConnectionRow } from "../rows";
import type { PgContext } from "./context";
import { rowOf, rowsOf, toColumns } from "./map";
import { noticePayload, NOTICE_CHANNEL } from "./notices";

/**
 * Builds the pixProvider repository on `ctx`. Writers refresh every instance's ConnectionCache (./connection-cache.ts).
 */
export function pixProviderRepo(ctx: PgContext): PixProviderRepo {
  const { sql } = ctx;
  const cache = ctx.shared.connections;
  /** Once the unit commits: this instance's cache takes the rows at once, the others reload on the notice. */
  const publish = async (rows: PixProviderConnectionRow[]) => {
    await sql`select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("pix_provider")})`;
    ctx.afterCommit(() => {
      for (const r of rows) cache.put(r);
    });
  };
  return {
    async activeByAccount(accountId) {
      return rowOf<PixProviderConnectionRow>(
        await sql`select * from pix_provider_connections where account_id = ${accountId} and deleted_at is null`,
      );
    },
    async byId(id) {
      return rowOf<PixProviderConnectionRow>(await sql`select * from pix_provider_connections where id = ${id}`);
    },
    async listActive() {
      return rowsOf<PixProviderConnectionRow>(
        await sql`select * from pix_provider_connections where deleted_at is null`,
      );
    },
    async saveActive(row) {
      // Lock the account's connections first: two saves of one account never both stay active.
      await sql`select id from pix_provider_connections where account_id = ${row.accountId} for update`;
      const retired = rowsOf<PixProviderConnectionRow>(
        await sql`update pix_provider_connections set deleted_at = ${row.updatedAt}, updated_at = ${row.updatedAt}
          where account_id = ${row.accountId} and deleted_at is null and id <> ${row.id} returning *`,
      );
      const { createdAt: _created, ...changes } = row;
      const saved = rowOf<PixProviderConnectionRow>(
        await sql`insert into pix_provider_connections ${sql(toColumns(row))}
          on conflict (id) do update set ${sql(toColumns({ ...changes, deletedAt: null }))} returning *`,
      )!;
      await publish([...retired, saved]);
    },
    async markDeleted(id, at) {
      const rows = rowsOf<PixProviderConnectionRow>(
        await sql`update pix_provider_connections set deleted_at = ${at}, updated_at = ${at} where id = ${id} returning *`,
      );
      if (rows.length) await publish(rows);
    },
  };
}
