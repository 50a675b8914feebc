/**
 * Reading request bodies safely: a size limit (413), a deadline for the whole body (408, against
 * bodies that trickle in), the exact JSON media type (415) and well-formed Unicode strings (400).
 */
import { ApiError, invalidParam } from "./errors";

/** One body read in flight: its deadline and how to settle the promise the parser awaits. */
interface PendingRead {
  at: number;
  resolve: (bytes: Uint8Array) => void;
  reject: (e: unknown) => void;
}

/**
 * Deadlines of the body reads in flight, checked by ONE coarse timer that runs only while a read
 * is pending (unref'd, so it never keeps the process alive). A read costs a Set entry and the
 * promise the parser awaits anyway, never a timer of its own (Bun resolves even a body that
 * arrived with its headers a turn later, so "arm a timer only when the body is late" cannot be
 * told apart). A read past its deadline is rejected with 408 `request_timeout`, whose answer
 * carries `Connection: close`, so the socket is not kept for the rest of the trickle.
 */
export class BodyDeadlines {
  private readonly pending = new Set<PendingRead>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Sweep period: a quarter of the deadline, between 10 ms and one second. */
  private readonly tick: number;

  /** `timeoutMs`: how long a whole body may take to arrive (COFRE_BODY_TIMEOUT_SECONDS, ms). */
  constructor(readonly timeoutMs: number) {
    this.tick = Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4)));
  }

  /**
   * The bytes of `work` (a body read) as a fresh Uint8Array; 413 `payload_too_large` above `max`
   * bytes; 408 `request_timeout` once `deadlineAt` (performance.now() ms) passes first. Not an
   * async function: this promise replaces the hop an async reader would add (the create path).
   */
  bytes(work: Promise<ArrayBuffer>, max: number, deadlineAt: number): Promise<Uint8Array> {
    let entry!: PendingRead;
    const out = new Promise<Uint8Array>((resolve, reject) => (entry = { at: deadlineAt, resolve, reject }));
    this.watch(entry);
    work.then(
      (buffer) => {
        if (!this.pending.delete(entry)) return; // already answered 408
        const bytes = new Uint8Array(buffer);
        if (bytes.byteLength > max) entry.reject(new ApiError("payload_too_large", "The request body is too large."));
        else entry.resolve(bytes);
      },
      (e) => {
        if (this.pending.delete(entry)) entry.reject(e);
      },
    );
    return out;
  }

  /** `work` (one chunk read of a streamed body), rejected with 408 once `deadlineAt` passes first. */
  chunk<T>(work: Promise<T>, deadlineAt: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: PendingRead = { at: deadlineAt, resolve: () => {}, reject };
      this.watch(entry);
      work.then(
        (v) => {
          if (this.pending.delete(entry)) resolve(v);
        },
        (e) => {
          if (this.pending.delete(entry)) reject(e);
        },
      );
    });
  }

  private watch(entry: PendingRead): void {
    this.pending.add(entry);
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.sweep(), this.tick);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private sweep(): void {
    const now = performance.now();
    for (const e of this.pending)
      if (e.at <= now) {
        this.pending.delete(e);
        e.reject(timedOut(this.timeoutMs));
      }
    if (this.pending.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

function timedOut(timeoutMs: number): ApiError {
  return new ApiError(
    "request_timeout",
    `The request body did not arrive within ${timeoutMs / 1000} seconds; send it in full and retry.`,
    {
      headers: { Connection: "close" },
    },
  );
}

/**
 * Reads a request body into a fresh Uint8Array (its own ArrayBuffer), stopping with 413
 * `payload_too_large` as soon as more than `max` bytes arrived (whether or not Content-Length
 * was sent), and with 408 `request_timeout` when the whole body has not arrived by `deadlineAt`
 * (performance.now() ms; checked by `deadlines`). A body with a declared Content-Length within
 * `max` (onRequest already refused a larger one) is read in one native call: HTTP framing makes it
 * exactly that long, and Bun's `arrayBuffer()` costs a fraction of a stream reader's promise per
 * chunk (the JSON create path).
 */
export function readBodyBytes(
  request: Request,
  max: number,
  deadlines: BodyDeadlines,
  deadlineAt: number,
): Promise<Uint8Array> {
  if (!request.body) return Promise.resolve(new Uint8Array(0));
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d{1,15}$/.test(declared) && Number(declared) <= max)
    return deadlines.bytes(request.arrayBuffer(), max, deadlineAt);
  return readStream(request.body, max, deadlines, deadlineAt);
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  max: number,
  deadlines: BodyDeadlines,
  deadlineAt: number,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await deadlines.chunk(reader.read(), deadlineAt);
    } catch (e) {
      void reader.cancel().catch(() => {});
      throw e;
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", "The request body is too large.");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * True when `contentType` is the JSON media type: `application/json` (type and subtype
 * case-insensitive, RFC 9110 8.3.1) with optional parameters, of which `charset` may only name
 * UTF-8 (RFC 8259 8.1: JSON is UTF-8). Look-alikes (`application/jsonx`, `application/json-seq`)
 * and structured-suffix types (`application/merge-patch+json`, `application/vnd.x+json`) are not:
 * those name other document semantics than the contract's plain JSON bodies.
 */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  if (contentType === "application/json") return true;
  const semi = contentType.indexOf(";");
  const type = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (type !== "application/json") return false;
  if (semi < 0) return true;
  for (const param of contentType.slice(semi + 1).split(";")) {
    const eq = param.indexOf("=");
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    if (value !== "utf-8" && value !== "utf8") return false;
  }
  return true;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Throws 400 `invalid_request` naming the field (dotted path, e.g. `customer.email`) when the
 * parsed JSON `value` holds a string with a lone UTF-16 surrogate (only JSON escapes can produce
 * one: `text` is already decoded UTF-8, so it is walked only when it contains such an escape).
 * Such strings are not Unicode text: validators throw on them (validator's isEmail -> URIError)
 * and SQLite would store replacement characters instead.
 */
export function assertWellFormedStrings(text: string, value: unknown): void {
  if (!text.includes("\\u") || !SURROGATE_ESCAPE.test(text)) return;
  const where = illFormedAt(value, "");
  if (where === null) return;
  const param = where || "body";
  throw invalidParam(param, `${param} contains a lone UTF-16 surrogate; text must be valid Unicode.`);
}

/** Dotted path of the first ill-formed string (or key: its parent's path) in `v`, else null. */
function illFormedAt(v: unknown, path: string): string | null {
  if (typeof v === "string") return v.isWellFormed() ? null : path;
  if (v === null || typeof v !== "object") return null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = illFormedAt(v[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  for (const [k, child] of Object.entries(v)) {
    if (!k.isWellFormed()) return path;
    const found = illFormedAt(child, path ? `${path}.${k}` : k);
    if (found !== null) return found;
  }
  return null;
}
