/** The pixProvider repository of the storage port: live Pix provider connections (active = not deleted). */
import type { NewPixProviderConnectionRow, PixProviderConnectionRow } from "../rows";

/**
 * The synchronous reads behind the provider registry's live slots (src/domain/providers/registry.ts is
 * synchronous and is consulted inside units of work). Each adapter provides them: SQLite reads
 * its one connection, PostgreSQL keeps every connection row in memory.
 */
export interface LiveConnectionReads {
  /** The account's active connection, or undefined. */
  activeByAccount(accountId: string): PixProviderConnectionRow | undefined;
  /** Connection `id`, deleted or not. */
  byId(id: string): PixProviderConnectionRow | undefined;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. Times are epoch ms. */
export interface PixProviderRepo {
  /** The account's active connection, or undefined. */
  activeByAccount(accountId: string): Promise<PixProviderConnectionRow | undefined>;
  /** Connection `id`, deleted or not (charges created through it keep settling). */
  byId(id: string): Promise<PixProviderConnectionRow | undefined>;
  /** Every active connection (the daily certificate check, the Pix sweep). */
  listActive(): Promise<PixProviderConnectionRow[]>;
  /**
   * Makes `row` the account's one active connection: any other active connection of the account
   * is marked deleted at `row.updatedAt`, then `row` is inserted, or replaces the stored row of the
   * same id (its `createdAt` kept). Call inside a unit of work.
   */
  saveActive(row: NewPixProviderConnectionRow): Promise<void>;
  /** Marks connection `id` deleted at `at`. */
  markDeleted(id: string, at: number): Promise<void>;
}
