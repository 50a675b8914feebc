/**
 * A worker thread whose code is a string (a Blob URL, so the single executable needs no file
 * beside it), with the small protocol the background workers share (src/store/sqlite/checkpointer.ts,
 * src/store/sqlite/request-log-file.ts):
 * - a message sent with `request` carries an `id`; the worker replies with the same `id`, or with
 *   `{type: "error", id, message}`;
 * - `{type: "stop"}` asks the worker to finish; it answers `{type: "stopped"}`;
 * - anything else the worker posts (no `id`, or an `error` without one) goes to the handlers.
 * The thread never keeps the process alive (unref).
 */

/** A message either way: `type` says what it is; `id` pairs a request with its reply. */
export interface WorkerMessage {
  type: string;
  id?: number;
  [field: string]: unknown;
}

export interface InlineWorker {
  /** Sends `message` and resolves with the worker's reply to it; rejects on its error reply. */
  request<T extends WorkerMessage = WorkerMessage>(message: WorkerMessage): Promise<T>;
  /** Sends `message` without waiting for anything. */
  post(message: WorkerMessage): void;
  /** Asks the worker to stop, waits for `stopped` (2 s at most), ends the thread. Idempotent. */
  stop(): Promise<void>;
}

export interface InlineWorkerHandlers {
  /** Messages that are no reply (e.g. a request from the worker). */
  onMessage?: (message: WorkerMessage) => void;
  /** The thread failed, or posted an error that answers no request. */
  onError?: (message: string) => void;
}

/** How long `stop` waits for the worker's `stopped` before ending the thread anyway (ms). */
const STOP_GRACE_MS = 2000;

/** Starts a worker running `source` (a module: it may import `bun:sqlite`). */
export function startInlineWorker(source: string, handlers: InlineWorkerHandlers = {}): InlineWorker {
  const url = URL.createObjectURL(new Blob([source], { type: "application/typescript" }));
  const worker = new Worker(url);
  (worker as unknown as { unref(): void }).unref();
  const waiting = new Map<number, { resolve: (m: WorkerMessage) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let onStopped: (() => void) | null = null;
  let stopping: Promise<void> | null = null;
  const rejectPending = (message: string) => {
    for (const w of waiting.values()) w.reject(new Error(message));
    waiting.clear();
  };
  worker.onmessage = (e: MessageEvent) => {
    const m = e.data as WorkerMessage;
    const pending = m.id !== undefined ? waiting.get(m.id) : undefined;
    if (pending) {
      waiting.delete(m.id!);
      if (m.type === "error") pending.reject(new Error(String(m.message)));
      else pending.resolve(m);
    } else if (m.type === "stopped") onStopped?.();
    else if (m.type === "error") handlers.onError?.(String(m.message));
    else handlers.onMessage?.(m);
  };
  worker.onerror = (e) => {
    rejectPending(e.message || "worker failed");
    handlers.onError?.(e.message || "worker failed");
  };
  return {
    request<T extends WorkerMessage>(message: WorkerMessage) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (m: WorkerMessage) => void, reject });
        worker.postMessage({ ...message, id });
      });
    },
    post(message) {
      worker.postMessage(message);
    },
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          onStopped = resolve;
          worker.postMessage({ type: "stop" });
          setTimeout(resolve, STOP_GRACE_MS).unref();
        });
        worker.terminate();
        URL.revokeObjectURL(url);
        rejectPending("worker stopped");
      })();
      return stopping;
    },
  };
}
