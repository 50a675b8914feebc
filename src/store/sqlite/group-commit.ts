/**
 * Group commit for `serve`: the write transactions of one event-loop turn share one SQLite
 * commit. On this kind of machine a commit (WAL append of every page the transaction touched)
 * costs more than the work of a charge creation itself, and the charges created by concurrent
 * requests touch the same index pages, so one commit per turn instead of one per request writes
 * far fewer pages (measured: ~3x creations per second).
 *
 * How: the first `tx()` of a turn runs `BEGIN IMMEDIATE` and schedules `COMMIT` for the end of the
 * turn (`setImmediate`); every `tx()` runs inside it as a SAVEPOINT (bun:sqlite nests that way),
 * so a throwing callback still rolls back exactly its own writes. An API request's arrival opens
 * the group too (the port's `store.openRequestScope()`), so its reads run inside the transaction.
 * Nothing is acknowledged before it is committed: the port's `store.durable()` is `committed(db)`
 * (src/store/sqlite/index.ts), which the HTTP layer awaits before sending any response produced
 * while a group is open (src/app.ts), as do a live charge creation before calling the PSP, a payout
 * before each send and the scheduler before claiming; so a crash loses only unacknowledged work,
 * as before. When COMMIT fails, every waiting response fails with 500 (safe to retry) and
 * `onError` is told. Other writers simply see their writes committed at the end of the turn.
 * Off unless enabled: `serve` enables it (`COFRE_GROUP_COMMIT=0` turns it off); one-shot CLI
 * commands and the test harness do not (they close the database right after writing).
 */
import type { Database, Statement } from "bun:sqlite";

interface OpenGroup {
  /** Run right before COMMIT, inside the group's transaction (e.g. buffered request-log rows). */
  beforeCommit: (() => void)[];
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

class GroupCommitter {
  private group: OpenGroup | null = null;
  private readonly begin: Statement;
  private readonly commit: Statement;

  constructor(
    private readonly client: Database,
    public onError: (err: unknown) => void,
  ) {
    // Savepoint sub-journals in memory, not in temporary files (they are written on every tx).
    client.exec("PRAGMA temp_store = MEMORY");
    this.begin = client.prepare("BEGIN IMMEDIATE");
    this.commit = client.prepare("COMMIT");
  }

  /** Opens this turn's group unless one (or another transaction) is already open. */
  enter(): void {
    if (this.group || this.client.inTransaction) return;
    this.begin.run();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((a, b) => {
      resolve = a;
      reject = b;
    });
    promise.catch(() => {}); // a group nobody waits for must not be an unhandled rejection
    this.group = { beforeCommit: [], promise, resolve, reject };
    setImmediate(() => this.flush());
  }

  /** True while a unit of work of the storage port is between its BEGIN/SAVEPOINT and its end. */
  busy: () => boolean = () => false;

  /**
   * Commits the open group now (end of turn, shutdown). A unit of work still running (one that
   * awaited past the end of the turn) must not be split by the COMMIT: the flush waits a turn.
   */
  flush(): void {
    const g = this.group;
    if (!g) return;
    if (this.busy()) {
      setImmediate(() => this.flush());
      return;
    }
    this.group = null;
    try {
      for (const fn of g.beforeCommit)
        try {
          fn();
        } catch {
          // A hook's failure is its own (documented at beforeGroupCommit); the group still commits.
        }
      if (!this.client.inTransaction) throw new Error("SQLite rolled the group's transaction back");
      this.commit.run();
      g.resolve();
    } catch (err) {
      try {
        if (this.client.inTransaction) this.client.run("ROLLBACK");
      } catch {}
      this.onError(err);
      g.reject(err);
    }
  }

  /** Opens the turn's group when none is open and runs `fn` right before its COMMIT. */
  beforeCommit(fn: () => void): boolean {
    this.enter();
    if (!this.group) return false; // someone else's transaction is open: no group this turn
    this.group.beforeCommit.push(fn);
    return true;
  }

  pending(): Promise<void> | null {
    return this.group?.promise ?? null;
  }
}

const committers = new WeakMap<object, GroupCommitter>();

/** Turns group commit on for the database `client` (idempotent). `onError` hears failed commits. */
export function enableGroupCommit(client: Database, onError: (err: unknown) => void = () => {}): void {
  const existing = committers.get(client);
  if (existing) existing.onError = onError;
  else {
    const c = new GroupCommitter(client, onError);
    const busy = busyProbes.get(client);
    if (busy) c.busy = busy;
    committers.set(client, c);
  }
}

/** Tells the group commit of `client` when a unit of work is running (src/store/sqlite/index.ts). */
export function holdGroupWhile(client: Database, busy: () => boolean): void {
  const c = committers.get(client);
  if (c) c.busy = busy;
  busyProbes.set(client, busy);
}
const busyProbes = new WeakMap<object, () => boolean>();

/** Called by `tx()` before its transaction: opens the turn's group when group commit is on. */
export function enterGroup(client: Database): void {
  committers.get(client)?.enter();
}

/**
 * Runs `fn` inside the turn's group right before it commits, opening the group when needed.
 * Returns false (nothing registered) when group commit is off or another transaction is open;
 * the caller then writes on its own. What `fn` throws is ignored: it must not leave half its
 * writes behind (wrap them in `tx()` if they must be all or nothing).
 */
export function beforeGroupCommit(client: Database, fn: () => void): boolean {
  return committers.get(client)?.beforeCommit(fn) ?? false;
}

/** The commit of the open group (await it before acknowledging anything), or null when none is open. */
export function committed(client: Database): Promise<void> | null {
  return committers.get(client)?.pending() ?? null;
}

/** Commits the open group now (call before closing the database). */
export function flushGroupCommit(client: Database): void {
  committers.get(client)?.flush();
}
