/**
 * The request-log repository of the storage port: one entry per apikey-authenticated request
 * (table `request_logs`; interface.md "Authentication" 9). The log is diagnostics, never money:
 * it is written outside units of work, in batches the adapter chooses (src/store/sqlite/request-log.ts,
 * src/store/pg/request-log.ts), so use it on `store.read`, never inside a unit.
 */
import type { RequestLogRow } from "../rows";

/** One entry as written. */
export interface RequestLogEntry {
  id: string;
  accountId: string;
  livemode: boolean;
  method: string;
  /** At most 500 characters. */
  path: string;
  status: number;
  requestId: string;
  /** sha256 hex of the key. */
  keyFingerprint: string;
  /** Whole milliseconds. */
  durationMs: number;
  /** Arrival, epoch ms. */
  createdAt: number;
}

/** A page query of one account's entries, newest first. */
export interface RequestLogPageQuery {
  /** Entries to return at most. */
  limit: number;
  /** Only entries older than this entry (an id of one of the account's entries). */
  startingAfter?: string;
  status?: number;
  keyFingerprint?: string;
}

export interface RequestLogRepo {
  /**
   * Queues one entry; it is written within about one event-loop turn (or ~20 ms with the log's own
   * file). Never throws and never waits: it is on every authenticated request's path.
   */
  append(entry: RequestLogEntry): void;
  /** Resolves once every entry appended so far is written and readable. */
  flushed(): Promise<void>;
  /** Deletes the entries created before `beforeMs` (epoch ms); resolves with how many. */
  pruneBefore(beforeMs: number): Promise<number>;
  /**
   * Up to `q.limit` entries of `accountId`, newest first (insertion order), or null when
   * `q.startingAfter` is not an entry of that account.
   */
  page(accountId: string, q: RequestLogPageQuery): Promise<RequestLogRow[] | null>;
}
