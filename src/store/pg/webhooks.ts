/**
 * PostgreSQL implementation of the webhooks repository (src/store/port/webhooks.ts): endpoints,
 * transaction secrets, and (./webhooks-deliveries.ts) deliveries and their attempts.
 */
import type { WebhookEndpointRow } from "../rows";
import type { ActiveEndpoint, WebhooksRepo } from "../port/webhooks";
import type { PgContext } from "./context";
import { rowOf, rowsOf, toColumns } from "./map";
import { deliveriesRepo } from "./webhooks-deliveries";

/** Builds the webhooks repository on `ctx`. */
export function webhooksRepo(ctx: PgContext): WebhooksRepo {
  const { sql } = ctx;
  /**
   * Inside a unit (this repository is built per unit), the subscribed endpoints read once per
   * account and mode: a create fans out two events (the canonical and the legacy family), each of
   * which read them. Any endpoint write of the unit forgets them.
   */
  const endpointsOfUnit = new Map<string, Promise<ActiveEndpoint[]>>();
  const forget = () => endpointsOfUnit.clear();
  return {
    async insertEndpoint(row) {
      forget();
      await sql`insert into webhook_endpoints ${sql(toColumns(row))}`;
    },
    async listEndpoints(s) {
      return rowsOf<WebhookEndpointRow>(
        await sql`select * from webhook_endpoints where account_id = ${s.accountId} and livemode = ${s.livemode} order by created_at desc, id desc`,
      );
    },
    async findEndpoint(s, id) {
      return rowOf<WebhookEndpointRow>(
        await sql`select * from webhook_endpoints where id = ${id} and account_id = ${s.accountId} and livemode = ${s.livemode}`,
      );
    },
    async endpointById(id) {
      return rowOf<WebhookEndpointRow>(await sql`select * from webhook_endpoints where id = ${id}`);
    },
    async updateEndpoint(id, set) {
      forget();
      const cols = toColumns(set);
      if (Object.keys(cols).length) await sql`update webhook_endpoints set ${sql(cols)} where id = ${id}`;
    },
    async deleteEndpoint(id) {
      forget();
      await sql`delete from webhook_endpoints where id = ${id}`;
    },
    activeEndpoints(accountId, livemode) {
      // Hot path (every event emitted). Oldest first: the order SQLite's index scan yields, which
      // orders the deliveries a fan-out creates.
      const read = async () =>
        [
          ...(await sql`select id, url, events from webhook_endpoints
          where account_id = ${accountId} and livemode = ${livemode} and status = 'ACTIVE' order by created_at, id`),
        ] as ActiveEndpoint[];
      if (!ctx.inUnit) return read();
      const key = `${accountId}|${livemode}`;
      let hit = endpointsOfUnit.get(key);
      if (!hit) endpointsOfUnit.set(key, (hit = read()));
      return hit.then((rows) => rows.slice());
    },

    ...deliveriesRepo(ctx),

    async transactionSecret(s) {
      const rows =
        (await sql`select secret from webhook_transaction_secrets where account_id = ${s.accountId} and livemode = ${s.livemode}`) as {
          secret: string;
        }[];
      return rows[0]?.secret;
    },
    async putTransactionSecret(s, secret, now) {
      await sql`insert into webhook_transaction_secrets (account_id, livemode, secret, created_at, updated_at)
        values (${s.accountId}, ${s.livemode}, ${secret}, ${now}, ${now})
        on conflict (account_id, livemode) do update set secret = excluded.secret, updated_at = excluded.updated_at`;
    },
    async keepTransactionSecret(s, secret, now) {
      await sql`insert into webhook_transaction_secrets (account_id, livemode, secret, created_at, updated_at)
        values (${s.accountId}, ${s.livemode}, ${secret}, ${now}, ${now}) on conflict (account_id, livemode) do nothing`;
      // A new statement: sees the row whichever unit inserted it (a conflicting insert was waited for).
      const [row] =
        await sql`select secret from webhook_transaction_secrets where account_id = ${s.accountId} and livemode = ${s.livemode}`;
      return row!.secret as string;
    },
  };
}
