/**
 * One HTTP attempt of a delivery, outside any transaction: POST with a timeout, redirects not
 * followed (3xx = failure), response body read up to RESPONSE_BODY_LIMIT, every failure mapped
 * to a typed DispatchOutcome (never throws). Guarded requests (every mode, unless
 * COFRE_WEBHOOK_ALLOW_PRIVATE) resolve the host, refuse non-public answers and connect to the
 * checked address with the original Host header and TLS server name.
 */
import { RESPONSE_BODY_LIMIT, parseRetryAfter, type DispatchOutcome } from "./model";
import type { WebhookRuntime } from "./runtime";
import { bareHost, resolvePublicTarget } from "./url-rules";

export interface DispatchRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Apply the SSRF guard. */
  guard: boolean;
  /** For Retry-After dates (epoch ms of the service clock). */
  nowMs: number;
}

/** Sends the attempt and classifies the result. */
export async function dispatch(rt: WebhookRuntime, req: DispatchRequest): Promise<DispatchOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(rt.timeoutMs);
  let target = req.url;
  const headers: Record<string, string> = { ...req.headers };
  const init: RequestInit & { tls?: { serverName?: string } } = {
    method: "POST",
    body: req.body,
    redirect: "manual",
    signal,
  };
  try {
    if (req.guard) {
      const u = new URL(req.url);
      const resolved = await withSignal(resolvePublicTarget(u.hostname, rt.lookup), signal);
      if ("refused" in resolved) return { kind: "refused", error: resolved.refused, durationMs: elapsed() };
      const host = bareHost(u.hostname);
      headers.Host = u.host;
      if (u.protocol === "https:") init.tls = { serverName: host };
      u.hostname = resolved.family === 6 ? `[${resolved.address}]` : resolved.address;
      target = u.toString();
    }
    init.headers = headers;
    const res = await rt.fetch(target, init);
    const body = await readLimited(res, RESPONSE_BODY_LIMIT);
    const statusCode = res.status;
    if (statusCode >= 200 && statusCode < 300) return { kind: "delivered", statusCode, body, durationMs: elapsed() };
    if (statusCode >= 300 && statusCode < 400)
      return { kind: "redirect", statusCode, body, location: res.headers.get("location"), durationMs: elapsed() };
    return {
      kind: "http_error",
      statusCode,
      body,
      retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after"), req.nowMs),
      durationMs: elapsed(),
    };
  } catch (err) {
    if (signal.aborted)
      return {
        kind: "timeout",
        error: `timeout: no complete response within ${rt.timeoutMs} ms`,
        durationMs: elapsed(),
      };
    const e = err as { code?: string; message?: string };
    const detail = [e.code, e.message].filter(Boolean).join(": ").slice(0, 500) || "connection failed";
    return { kind: "network_error", error: `network error: ${detail}`, durationMs: elapsed() };
  }
}

/** Rejects with the signal's reason when it aborts first (DNS lookups take no signal). */
function withSignal<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Reads at most `limit` bytes of the body (then cancels the stream) and decodes them as UTF-8. */
async function readLimited(res: Response, limit: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (size >= limit) await reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return new TextDecoder().decode(all.subarray(0, limit)).slice(0, limit);
}
