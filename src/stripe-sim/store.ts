/**
 * stripe-sim state in its own SQLite file (bun:sqlite, WAL): test accounts and their keys, every
 * API object as its JSON document (what the API answers, typed by the builders in the *-objects.ts modules)
 * beside a small simulator-only `extra` document (the card used, a dispute to open), events and
 * their deliveries, idempotent answers, timed jobs (refund settlement, dispute opening, delivery
 * retries) and settings. Self-contained schema (CREATE TABLE IF NOT EXISTS): not part of Cofre's
 * database. Instants: `*_ms` wall-clock epoch milliseconds, `created` Unix seconds (Stripe's).
 */
import { Database } from "bun:sqlite";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY, secret_key TEXT NOT NULL UNIQUE, email TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS objects (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, account TEXT NOT NULL, kind TEXT NOT NULL,
  doc TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}', created INTEGER NOT NULL, ref TEXT);
CREATE INDEX IF NOT EXISTS objects_kind ON objects (account, kind, seq);
CREATE INDEX IF NOT EXISTS objects_ref ON objects (ref) WHERE ref IS NOT NULL;
CREATE TABLE IF NOT EXISTS deadlines (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS deadlines_expiry ON deadlines (expires_at);
CREATE TABLE IF NOT EXISTS endpoint_secrets (id TEXT PRIMARY KEY, secret TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, account TEXT NOT NULL, type TEXT NOT NULL,
  created INTEGER NOT NULL, doc TEXT NOT NULL, dropped INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS events_account ON events (account, seq);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, endpoint_id TEXT NOT NULL, url TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, http_status INTEGER, error TEXT,
  last_ms INTEGER, next_ms INTEGER);
CREATE TABLE IF NOT EXISTS attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT, delivery_id INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  http_status INTEGER, error TEXT);
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, ref TEXT NOT NULL, due_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (
  account TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
  body TEXT NOT NULL, created_ms INTEGER NOT NULL, PRIMARY KEY (account, key));
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export interface AccountRow {
  id: string;
  secret_key: string;
  email: string;
  created: number;
}
export interface ObjectRow {
  seq: number;
  id: string;
  account: string;
  kind: string;
  doc: string;
  extra: string;
  created: number;
  /** The object this one hangs from (a refund's charge), or null. */
  ref: string | null;
}
export interface EventRow {
  seq: number;
  id: string;
  account: string;
  type: string;
  created: number;
  doc: string;
  dropped: number;
}
export type DeliveryStatus = "pending" | "succeeded" | "failed";
export interface DeliveryRow {
  id: number;
  event_id: string;
  endpoint_id: string;
  url: string;
  attempts: number;
  status: DeliveryStatus;
  http_status: number | null;
  error: string | null;
  last_ms: number | null;
  next_ms: number | null;
}
export interface AttemptRow {
  id: number;
  delivery_id: number;
  at_ms: number;
  http_status: number | null;
  error: string | null;
}
export type JobKind = "refund_settle" | "dispute_open" | "deliver";
export interface JobRow {
  id: number;
  kind: JobKind;
  ref: string;
  due_ms: number;
}
export interface IdempotencyRow {
  fingerprint: string;
  status: number;
  body: string;
}

/** The simulator's database; every method is synchronous (bun:sqlite). */
export class StripeSimStore {
  readonly db: Database;

  constructor(file: string) {
    this.db = new Database(file, { create: true, strict: true });
    // NORMAL in WAL mode survives a killed process (only a power cut can lose the last commits).
    this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;");
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  /** Runs `fn` in one transaction. */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  addAccount(row: AccountRow): void {
    this.db
      .query("INSERT INTO accounts (id, secret_key, email, created) VALUES ($id, $secret_key, $email, $created)")
      .run({ ...row });
  }
  accountByKey(key: string): AccountRow | null {
    return this.db.query<AccountRow, [string]>("SELECT * FROM accounts WHERE secret_key = ?").get(key);
  }
  account(id: string): AccountRow | null {
    return this.db.query<AccountRow, [string]>("SELECT * FROM accounts WHERE id = ?").get(id);
  }
  accounts(): AccountRow[] {
    return this.db.query<AccountRow, []>("SELECT * FROM accounts ORDER BY created, id").all();
  }

  /** Inserts an object document (`ref`: the object it hangs from, for `children`). */
  insert(
    account: string,
    kind: string,
    doc: { id: string; created: number },
    extra: object = {},
    ref: string | null = null,
  ): void {
    this.db
      .query("INSERT INTO objects (id, account, kind, doc, extra, created, ref) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(doc.id, account, kind, JSON.stringify(doc), JSON.stringify(extra), doc.created, ref);
  }
  /** Objects of `kind` inserted with `ref`, newest first. */
  children(ref: string, kind: string): ObjectRow[] {
    return this.db
      .query<ObjectRow, [string, string]>("SELECT * FROM objects WHERE ref = ? AND kind = ? ORDER BY seq DESC")
      .all(ref, kind);
  }
  /** Objects of a kind of an account whose document field `field` equals `value` (JSON path), newest first. */
  listWhere(account: string, kind: string, field: string, value: string): ObjectRow[] {
    return this.db
      .query<ObjectRow, [string, string, string, string]>(
        "SELECT * FROM objects WHERE account = ? AND kind = ? AND json_extract(doc, ?) = ? ORDER BY seq DESC",
      )
      .all(account, kind, `$.${field}`, value);
  }

  /** Sets when an open session or a waiting boleto expires (`expiresAt` Unix s); `null` forgets it. */
  setDeadline(id: string, expiresAt: number | null): void {
    if (expiresAt === null) this.db.query("DELETE FROM deadlines WHERE id = ?").run(id);
    else this.db.query("INSERT OR REPLACE INTO deadlines (id, expires_at) VALUES (?, ?)").run(id, expiresAt);
  }
  /** Ids whose deadline is at or before `now` (Unix s), earliest first. */
  due(now: number): string[] {
    return this.db
      .query<{ id: string }, [number]>("SELECT id FROM deadlines WHERE expires_at <= ? ORDER BY expires_at")
      .all(now)
      .map((r) => r.id);
  }
  /** Replaces an object's document (and its extra when given). */
  update<T extends { id: string }>(doc: T, extra?: object): void {
    if (extra === undefined) this.db.query("UPDATE objects SET doc = ? WHERE id = ?").run(JSON.stringify(doc), doc.id);
    else
      this.db
        .query("UPDATE objects SET doc = ?, extra = ? WHERE id = ?")
        .run(JSON.stringify(doc), JSON.stringify(extra), doc.id);
  }
  row(id: string): ObjectRow | null {
    return this.db.query<ObjectRow, [string]>("SELECT * FROM objects WHERE id = ?").get(id);
  }
  /** Objects of a kind of an account, newest first. */
  list(account: string, kind: string): ObjectRow[] {
    return this.db
      .query<ObjectRow, [string, string]>("SELECT * FROM objects WHERE account = ? AND kind = ? ORDER BY seq DESC")
      .all(account, kind);
  }
  remove(id: string): void {
    this.db.query("DELETE FROM objects WHERE id = ?").run(id);
  }
  countOf(kind: string): number {
    return this.db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM objects WHERE kind = ?").get(kind)!.n;
  }

  setEndpointSecret(id: string, secret: string): void {
    this.db.query("INSERT OR REPLACE INTO endpoint_secrets (id, secret) VALUES (?, ?)").run(id, secret);
  }
  endpointSecret(id: string): string | null {
    return (
      this.db.query<{ secret: string }, [string]>("SELECT secret FROM endpoint_secrets WHERE id = ?").get(id)?.secret ??
      null
    );
  }

  addEvent(row: Omit<EventRow, "seq">): void {
    this.db
      .query(
        "INSERT INTO events (id, account, type, created, doc, dropped) VALUES ($id, $account, $type, $created, $doc, $dropped)",
      )
      .run({ ...row });
  }
  event(id: string): EventRow | null {
    return this.db.query<EventRow, [string]>("SELECT * FROM events WHERE id = ?").get(id);
  }
  /** Events of an account created within [lo, hi] (Unix s), newest first. */
  events(account: string, lo = -1, hi = Number.MAX_SAFE_INTEGER): EventRow[] {
    return this.db
      .query<EventRow, [string, number, number]>(
        "SELECT * FROM events WHERE account = ? AND created >= ? AND created <= ? ORDER BY seq DESC",
      )
      .all(account, lo, hi);
  }
  allEvents(): EventRow[] {
    return this.db.query<EventRow, []>("SELECT * FROM events ORDER BY seq").all();
  }

  addDelivery(eventId: string, endpointId: string, url: string, nextMs: number): number {
    return Number(
      this.db
        .query("INSERT INTO deliveries (event_id, endpoint_id, url, status, next_ms) VALUES (?, ?, ?, 'pending', ?)")
        .run(eventId, endpointId, url, nextMs).lastInsertRowid,
    );
  }
  delivery(id: number): DeliveryRow | null {
    return this.db.query<DeliveryRow, [number]>("SELECT * FROM deliveries WHERE id = ?").get(id);
  }
  deliveriesOf(eventId: string): DeliveryRow[] {
    return this.db.query<DeliveryRow, [string]>("SELECT * FROM deliveries WHERE event_id = ? ORDER BY id").all(eventId);
  }
  /** Records one attempt and the delivery's new state. */
  recordAttempt(
    d: DeliveryRow,
    atMs: number,
    httpStatus: number | null,
    error: string | null,
    status: DeliveryStatus,
    nextMs: number | null,
  ): void {
    this.tx(() => {
      this.db
        .query("INSERT INTO attempts (delivery_id, at_ms, http_status, error) VALUES (?, ?, ?, ?)")
        .run(d.id, atMs, httpStatus, error);
      this.db
        .query(
          "UPDATE deliveries SET attempts = attempts + 1, status = ?, http_status = ?, error = ?, last_ms = ?, next_ms = ? WHERE id = ?",
        )
        .run(status, httpStatus, error, atMs, nextMs, d.id);
    });
  }
  attemptsOf(deliveryId: number): AttemptRow[] {
    return this.db
      .query<AttemptRow, [number]>("SELECT * FROM attempts WHERE delivery_id = ? ORDER BY id")
      .all(deliveryId);
  }
  pendingDeliveries(): DeliveryRow[] {
    return this.db.query<DeliveryRow, []>("SELECT * FROM deliveries WHERE status = 'pending' ORDER BY id").all();
  }
  countDeliveries(): number {
    return this.db.query<{ n: number }, []>("SELECT count(*) AS n FROM deliveries").get()!.n;
  }

  addJob(kind: JobKind, ref: string, dueMs: number): number {
    return Number(
      this.db.query("INSERT INTO jobs (kind, ref, due_ms) VALUES (?, ?, ?)").run(kind, ref, dueMs).lastInsertRowid,
    );
  }
  /** Deletes a job; false when it was already taken. */
  takeJob(id: number): boolean {
    return this.db.query("DELETE FROM jobs WHERE id = ?").run(id).changes === 1;
  }
  jobs(): JobRow[] {
    return this.db.query<JobRow, []>("SELECT * FROM jobs ORDER BY due_ms, id").all();
  }
  jobsFor(kind: JobKind, ref: string): JobRow[] {
    return this.db.query<JobRow, [string, string]>("SELECT * FROM jobs WHERE kind = ? AND ref = ?").all(kind, ref);
  }

  idempotent(account: string, key: string): IdempotencyRow | null {
    return this.db
      .query<IdempotencyRow, [string, string]>(
        "SELECT fingerprint, status, body FROM idempotency WHERE account = ? AND key = ?",
      )
      .get(account, key);
  }
  saveIdempotent(account: string, key: string, row: IdempotencyRow, nowMs: number): void {
    this.db
      .query(
        "INSERT OR REPLACE INTO idempotency (account, key, fingerprint, status, body, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(account, key, row.fingerprint, row.status, row.body, nowMs);
  }
  /** Forgets idempotent answers older than `beforeMs`. */
  pruneIdempotent(beforeMs: number): void {
    this.db.query("DELETE FROM idempotency WHERE created_ms < ?").run(beforeMs);
  }

  setting(key: string): string | null {
    return (
      this.db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(key)?.value ?? null
    );
  }
  setSetting(key: string, value: string | null): void {
    if (value === null) this.db.query("DELETE FROM settings WHERE key = ?").run(key);
    else this.db.query("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run(key, value);
  }
}
