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
  const options: pino.LoggerOptions = { level, redact: { paths: REDACT, censor: "[redacted]" }, base: { svc: "cofre" } };
  return destination ? pino(options, destination) : pino(options);
}
