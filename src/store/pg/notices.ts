/**
 * Cross-instance notices over PostgreSQL LISTEN/NOTIFY (Store.onChange, src/store/port.ts). One
 * channel, `cofre_notice`; a payload is `<topic>` or `<topic>:<data>`. Writers send them with
 * `noticeSql` inside the writing transaction, so a notice is delivered only once the change it
 * announces has committed, and never for a rollback. Bun.SQL keeps one dedicated LISTEN
 * connection and re-subscribes after it drops; notices sent meanwhile are lost, so after every
 * re-subscription each handler is called with null ("refresh everything").
 */
import type { SQL } from "bun";
import type { Logger } from "../../lib/logger";
import type { ChangeTopic } from "../port";

/** The one notice channel. */
export const NOTICE_CHANNEL = "cofre_notice";

/** The payload of a notice of `topic` (with optional `data`): `select pg_notify('cofre_notice', <this>)`. */
export function noticePayload(topic: ChangeTopic, data?: string | number): string {
  return data === undefined ? topic : `${topic}:${data}`;
}

export class Notices {
  private handlers = new Map<ChangeTopic, ((payload: string | null) => void)[]>();
  private subscription: SQL.ListenSubscription | null = null;
  private listens = 0;

  constructor(
    private readonly pool: SQL,
    private readonly logger?: Pick<Logger, "error" | "warn">,
  ) {}

  /** Calls `fn` for each notice of `topic` (its data, or "" when it has none), and with null after a re-subscription. */
  on(topic: ChangeTopic, fn: (payload: string | null) => void): void {
    let list = this.handlers.get(topic);
    if (!list) this.handlers.set(topic, (list = []));
    list.push(fn);
  }

  /** Subscribes (resolves once PostgreSQL acknowledged the LISTEN). */
  async start(): Promise<void> {
    this.subscription = await this.pool.listen(
      NOTICE_CHANNEL,
      (payload) => this.dispatch(payload),
      () => {
        // The first acknowledgement is the start itself: caches are loaded after it.
        if (this.listens++ === 0) return;
        this.logger?.warn({ channel: NOTICE_CHANNEL }, "notice channel re-subscribed; refreshing caches");
        for (const list of this.handlers.values()) for (const fn of list) this.call(fn, null);
      },
    );
  }

  /** Unsubscribes (the dedicated connection closes with the last subscription). */
  async stop(): Promise<void> {
    const s = this.subscription;
    this.subscription = null;
    await s?.unlisten();
  }

  private dispatch(payload: string): void {
    const i = payload.indexOf(":");
    const topic = (i < 0 ? payload : payload.slice(0, i)) as ChangeTopic;
    const data = i < 0 ? "" : payload.slice(i + 1);
    for (const fn of this.handlers.get(topic) ?? []) this.call(fn, data);
  }

  private call(fn: (payload: string | null) => void, payload: string | null): void {
    try {
      fn(payload);
    } catch (err) {
      this.logger?.error({ err }, "notice handler failed");
    }
  }
}
