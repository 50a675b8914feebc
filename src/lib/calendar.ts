/**
 * Calendar days in America/Sao_Paulo (DESIGN.md "Statistics days are calendar days in
 * America/Sao_Paulo"). Pure: epoch ms in, `YYYY-MM-DD` out, via Intl (tzdata of the runtime).
 */

export const STATS_TIME_ZONE = "America/Sao_Paulo";
const DAY_MS = 86_400_000;

const fmt = new Intl.DateTimeFormat("en-CA", {
  timeZone: STATS_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Calendar date (`YYYY-MM-DD`) of the instant `ms` in São Paulo. */
export function saoPauloDate(ms: number): string {
  return fmt.format(new Date(ms));
}

/** `date` plus `days` calendar days (`YYYY-MM-DD` arithmetic, time-zone free). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!) + days * DAY_MS).toISOString().slice(0, 10);
}

/** UTC offset of São Paulo at `ms`, in minutes (e.g. -180). */
function offsetMinutes(ms: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: STATS_TIME_ZONE,
    timeZoneName: "longOffset",
  }).formatToParts(new Date(ms));
  const name = parts.find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Epoch ms of 00:00 in São Paulo on `date` (`YYYY-MM-DD`). */
export function startOfSaoPauloDay(date: string): number {
  const [y, m, d] = date.split("-").map(Number);
  const utcMidnight = Date.UTC(y!, m! - 1, d!);
  return utcMidnight - offsetMinutes(utcMidnight + 12 * 3600_000) * 60_000;
}

/** Epoch ms of the last millisecond of `date` in São Paulo. */
export function endOfSaoPauloDay(date: string): number {
  return startOfSaoPauloDay(addDays(date, 1)) - 1;
}
