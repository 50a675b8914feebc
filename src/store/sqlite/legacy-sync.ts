/**
 * TRANSITIONAL (issue 16): synchronous use of the outbox and jobs repositories by callers still
 * inside a synchronous `tx(deps.db, ...)` (src/domain/events/emit.ts, src/jobs/scheduler.ts).
 * SQLite repository methods run their statements before they return, so their promise is already
 * settled and `settled` reads it at once. Goes when the last caller passes a uow.
 */
import type { Store } from "../port";
import type { EventsRepo } from "../port/events";
import type { JobsRepo } from "../port/jobs";
import type { WebhooksRepo } from "../port/webhooks";
import type { SqliteContext } from "./context";
import { eventsRepo } from "./events";
import type { SqliteStore } from "./index";
import { jobsRepo } from "./jobs";
import { webhooksRepo } from "./webhooks";

/** The repositories a synchronous legacy caller of the outbox or the scheduler needs. */
export interface LegacyOutbox {
  events: EventsRepo;
  webhooks: WebhooksRepo;
  jobs: JobsRepo;
}

const built = new WeakMap<SqliteContext, LegacyOutbox>();

/** The repositories of `store`'s connection, unlocked (the caller's synchronous transaction is open). */
export function legacyOutbox(store: Store): LegacyOutbox {
  const ctx = (store as Partial<SqliteStore>).ctx;
  if (!ctx) throw new Error("a synchronous tx() caller needs the SQLite store: pass a uow instead");
  let o = built.get(ctx);
  if (!o) built.set(ctx, (o = { events: eventsRepo(ctx), webhooks: webhooksRepo(ctx), jobs: jobsRepo(ctx) }));
  return o;
}

/** The value of a promise that has already settled (a SQLite repository call), synchronously. */
export function settled<T>(p: Promise<T>): T {
  const status = Bun.peek.status(p);
  if (status === "fulfilled") return Bun.peek(p) as T;
  if (status === "rejected") {
    const err = Bun.peek(p);
    p.catch(() => {});
    throw err;
  }
  throw new Error("a repository call did not settle synchronously (legacy tx() caller)");
}
