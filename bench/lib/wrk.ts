/**
 * Runs wrk (2 threads, 50 connections by default) and parses requests/s, p50/p99 latency (ms)
 * and the non-2xx count from its `--latency` report. Optional Lua script text for POST bodies.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface WrkResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface WrkOptions {
  seconds: number;
  connections?: number;
  threads?: number;
  headers?: Record<string, string>;
  /** Lua script text (e.g. a `request` function building POSTs). */
  lua?: string;
}

function toMs(v: string, unit: string): number {
  const n = Number(v);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : n;
}

export async function wrk(url: string, o: WrkOptions): Promise<WrkResult> {
  const args = [
    "wrk",
    `-t${o.threads ?? 2}`,
    `-c${o.connections ?? 50}`,
    `-d${o.seconds}s`,
    "--latency",
    "--timeout",
    "10s",
  ];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push("-H", `${k}: ${v}`);
  let scriptDir: string | null = null;
  if (o.lua) {
    scriptDir = mkdtempSync(join(tmpdir(), "cofre-wrk-"));
    writeFileSync(join(scriptDir, "script.lua"), o.lua);
    args.push("-s", join(scriptDir, "script.lua"));
  }
  args.push(url);
  const p = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`wrk failed (${code}): ${err || out}`);
  const pct = (q: string) => {
    const m = new RegExp(`^\\s+${q}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(out);
    return m ? toMs(m[1]!, m[2]!) : NaN;
  };
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: pct("50"),
    p99Ms: pct("99"),
    requests: num(/(\d+) requests in/),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    errors: sockErr ? sockErr.slice(1).reduce((s, x) => s + Number(x), 0) : 0,
  };
}

/**
 * wrk's Lua script for charge creation with test key `apiKey`: a unique Idempotency-Key per
 * request (`<prefix>-<thread>-<n>`; wrk.format replaces the -H headers, so they are set here).
 */
export function createChargeLua(apiKey: string, prefix: string): string {
  return `
local n = 0
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function request()
  n = n + 1
  return wrk.format("POST", "/v1/pix/charges", {
    ["content-type"] = "application/json",
    ["apikey"] = "${apiKey}",
    ["idempotency-key"] = "${prefix}-" .. tid .. "-" .. n,
  }, '{"amount":1990,"description":"bench","customer":{"name":"Pagador Bench","document":"52998224725"}}')
end`;
}
