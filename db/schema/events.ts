/** The event outbox: one row per business event, written in the business transaction. */
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const events = sqliteTable(
  "events",
  {
    /** `evt_...`, stable per business event and identical across retries. */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** e.g. `charge.paid`, `payment.completed`, `med_case.created`. */
    type: text("type").notNull(),
    /** "canonical" | "legacy" | "med" */
    family: text("family").notNull(),
    /** JSON text of the envelope exactly as it is sent (the body that gets signed). */
    body: text("body").notNull(),
    /** Raw id of the transaction/charge the event is about, when it is about one. */
    transactionId: text("transaction_id"),
    createdAt: integer("created_at").notNull(),
  },
  // Read by id (deliveries), by transaction (resend) and, newest first, by account and mode
  // (GET /v1/events, extensions.md "Events API"; the 30-day prune walks created_at through it too).
  (t) => [
    index("events_tx_idx").on(t.transactionId),
    index("events_account_created_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
  ],
);
