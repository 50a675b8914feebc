/** PostgreSQL implementation of the events repository (src/store/port/events.ts): the `events` outbox. */
import type { EventsRepo } from "../port/events";
import type { PgContext } from "./context";

/** Builds the events repository on `ctx`. */
export function eventsRepo(ctx: PgContext): EventsRepo {
  const { sql } = ctx;
  return {
    async append(row) {
      // Hot path: once per stored event (explicit columns: one prepared statement).
      await sql`insert into events (id, account_id, livemode, type, family, body, transaction_id, created_at)
        values (${row.id}, ${row.accountId}, ${row.livemode}, ${row.type}, ${row.family}, ${row.body}, ${row.transactionId ?? null}, ${row.createdAt})`;
    },
    async bodyOf(eventId) {
      const [row] = await sql`select body from events where id = ${eventId}`;
      return row?.body as string | undefined;
    },
  };
}
