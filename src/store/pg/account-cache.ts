/**
 * What a charge create reads of its account on PostgreSQL, kept per instance (the create hot path:
 * two round trips fewer): the account's create settings (`accountForCreate`) and whether its
 * sandbox has pending provider faults (`faultsLeft`; only "none" is kept: a pending fault is read
 * fresh every time, since each create takes one).
 *
 * Freshness: an entry lives at most TTL_MS; writers clear it on commit on this instance
 * (`afterCommit`) and send the `accounts` notice in the writing unit, on which every instance
 * clears it, also after a reconnect of the notice channel (src/store/pg/index.ts). A read that
 * began before a clear is not kept (the epoch moved). Only a store subscribed to notices caches
 * at all: without them another writer (another instance, or SQL typed by hand) could not reach it.
 */
import type { CreateAccount } from "../port/charges";

/** Longest an entry is served (ms): the backstop should a notice be lost. */
export const TTL_MS = 30_000;
/** Entries kept at most (oldest dropped first). */
const MAX = 10_000;

interface Entry {
  account?: CreateAccount;
  /** True once a read found no pending fault. */
  noFaults?: boolean;
  at: number;
}

export class AccountCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(readonly enabled: boolean) {}

  /** The cached entry of `accountId` while fresh, else undefined. */
  get(accountId: string): Entry | undefined {
    const e = this.entries.get(accountId);
    if (e && performance.now() - e.at > TTL_MS) {
      this.entries.delete(accountId);
      return undefined;
    }
    return e;
  }

  /** A token to pass to `put`: a read that started before a clear must not be kept. */
  epoch(): number {
    return this.generation;
  }

  /** Keeps `part` for `accountId` unless disabled or cleared since `epoch`. */
  put(accountId: string, part: Omit<Entry, "at">, epoch: number): void {
    if (!this.enabled || epoch !== this.generation) return;
    const e = this.entries.get(accountId);
    if (e) return void Object.assign(e, part);
    if (this.entries.size >= MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(accountId, { ...part, at: performance.now() });
  }

  /** Forgets everything (a write of any account's settings or faults, here or on another instance). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
