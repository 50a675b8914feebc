/** pino JSON logger to stdout. Never a transport (worker threads crash in the executable). */
import pino from "pino";

export type Logger = pino.Logger;

/** Fields that must never reach a log line in clear (keys, tokens, passwords, documents, cards). */
const REDACT = [
  "apikey",
  "authorization",
  "password",
  "*.password",
  "apiKey",
  "*.apiKey",
  "secret",
  "*.secret",
  "token",
  "access_token",
  "document",
  "*.document",
  "cardNumber",
  "*.cardNumber",
  "card_number",
  "*.card_number",
  "*.apikey",
  "*.authorization",
  "*.token",
  "*.access_token",
  "tax_id",
  "*.tax_id",
  "payer_tax_id",
  "*.payer_tax_id",
  "req.headers.apikey",
  "req.headers.authorization",
];

/**
 * Creates the process logger at `level` ("silent" in tests), writing JSON lines to stdout, or to
 * `destination` (tests capture lines with any `{write(line)}` object).
 */
export function createLogger(level = "info", destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACT, censor: "[redacted]" },
    base: { svc: "cofre" },
  };
  return pino(options, destination ?? (stdout ??= batchedStdout()));
}

/** The one batched stdout stream every logger of the process shares (one exit hook, one order). */
let stdout: pino.DestinationStream | undefined;

/**
 * stdout with one write per event-loop turn: lines logged during a turn (under load, the access
 * lines of many requests) are joined and written by pino's own synchronous stdout stream on the
 * next turn, and on process exit. Same lines, same order, far fewer syscalls; a SIGKILL loses at
 * most the current turn's lines.
 */
function batchedStdout(): pino.DestinationStream {
  const out = pino.destination({ dest: 1, sync: true });
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0]! : pending.join("");
    pending = [];
    out.write(text);
  };
  process.on("exit", flush);
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    // `logger.flush(cb)` writes what is pending now.
    flush(cb?: (err?: Error) => void) {
      flush();
      cb?.();
    },
  } as pino.DestinationStream;
}

/** Fields of one access-log line (`msg: "request"`). */
export interface AccessFields {
  request_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  key_fingerprint?: string;
}

/**
 * Returns a writer of the per-request access line: the exact JSON line `logger.info(fields,
 * "request")` writes (level, time, bindings, fields in order, msg), built directly. pino's generic
 * path (wildcard redaction that re-parses every path for every string value, per-field
 * serialization, tracing) costs several times more, and none of these fields can hold a secret.
 * Honours the logger's level at each call.
 */
export function accessLogger(logger: Logger): (f: AccessFields) => void {
  const stream = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym]!;
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? "";
  const level = logger.levels.values.info;
  return (f) => {
    if (!logger.isLevelEnabled("info")) return;
    let line = `{"level":${level},"time":${Date.now()}${bindings},"request_id":${JSON.stringify(f.request_id)},"method":${JSON.stringify(f.method)},"route":${JSON.stringify(f.route)},"status":${num(f.status)},"duration_ms":${num(f.duration_ms)}`;
    if (f.key_fingerprint !== undefined) line += `,"key_fingerprint":${JSON.stringify(f.key_fingerprint)}`;
    stream.write(`${line},"msg":"request"}\n`);
  };
}

/** A number as pino writes it (non-finite -> null). */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : "null";
}
