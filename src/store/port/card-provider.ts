/**
 * The cardProvider repository of the storage port: live card provider connections (extensions.md
 * "Live cards and boletos through Stripe"; active = not deleted) and the provider events already
 * handled (webhooks are idempotent by event id).
 */
import type { CardProviderConnectionRow, NewCardProviderConnectionRow } from "../rows";

/**
 * The synchronous reads behind the provider registry's live card slot (src/domain/providers/registry.ts is
 * synchronous and is consulted inside units of work): SQLite reads its one connection, PostgreSQL
 * keeps every card connection row in memory (src/store/pg/card-connection-cache.ts).
 */
export interface LiveCardConnectionReads {
  /** The account's active card connection, or undefined. */
  activeByAccount(accountId: string): CardProviderConnectionRow | undefined;
  /** Card connection `id`, deleted or not. */
  byId(id: string): CardProviderConnectionRow | undefined;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. Times are epoch ms. */
export interface CardProviderRepo {
  /** The account's active connection, or undefined. */
  activeByAccount(accountId: string): Promise<CardProviderConnectionRow | undefined>;
  /** Connection `id`, deleted or not (payments created through it keep settling). */
  byId(id: string): Promise<CardProviderConnectionRow | undefined>;
  /** Every active connection (the periodic event sweep). */
  listActive(): Promise<CardProviderConnectionRow[]>;
  /**
   * Makes `row` the account's one active connection: any other active connection of the account
   * is marked deleted at `row.updatedAt`, then `row` is inserted, or replaces the stored row of the
   * same id (its `createdAt` kept).
   */
  saveActive(row: NewCardProviderConnectionRow): Promise<void>;
  /** Marks connection `id` deleted at `at`. */
  markDeleted(id: string, at: number): Promise<void>;
  /** Sets the event sweep's cursor of connection `id` (epoch seconds of Stripe's `created`). */
  setEventsSeenUntil(id: string, seconds: number): Promise<void>;
  /**
   * Remembers provider event `eventId` of connection `connectionId`; true when it was new, false
   * when it was already handled (the caller then does nothing).
   */
  recordEvent(connectionId: string, eventId: string, type: string, at: number): Promise<boolean>;
}
