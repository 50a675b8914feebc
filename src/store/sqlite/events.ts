/** SQLite implementation of the events repository (src/store/port/events.ts): the `events` outbox. */
import { eq, sql } from "drizzle-orm";
import { events } from "../../../db/schema";
import type { EventsRepo } from "../port/events";
import type { SqliteContext } from "./context";

const p = (name: string) => sql.placeholder(name);

/** Builds the events repository on the adapter's connection `ctx`. */
export function eventsRepo(ctx: SqliteContext): EventsRepo {
  // drizzle's prepared insert, built on first use and kept for the connection (hot path).
  let insert: ReturnType<typeof prepareInsert> | undefined;
  return {
    async append(row) {
      (insert ??= prepareInsert(ctx)).run({ ...row, transactionId: row.transactionId ?? null });
    },
    async bodyOf(eventId) {
      return ctx.db.select({ body: events.body }).from(events).where(eq(events.id, eventId)).get()?.body;
    },
  };
}

function prepareInsert(ctx: SqliteContext) {
  return ctx.db
    .insert(events)
    .values({
      id: p("id"),
      accountId: p("accountId"),
      livemode: p("livemode"),
      type: p("type"),
      family: p("family"),
      body: p("body"),
      transactionId: p("transactionId"),
      createdAt: p("createdAt"),
    })
    .prepare();
}
