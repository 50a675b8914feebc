/**
 * Starts a Cofre process (source or executable) on 127.0.0.1 with PORT=0 and reads its JSON log.
 * The child gets `serverEnv(dataDir)` (test/support/backend.ts): under COFRE_TEST_PG=1 it uses the
 * data folder's PostgreSQL database, the same one `testDeps` and an `init` child of that folder use.
 */
import { expect } from "bun:test";
import { serverEnv } from "../support/backend";

export interface RunningServer {
  port: number;
  base: string;
  /** Every JSON log line read from stdout so far. */
  lines: () => Record<string, any>[];
  /** Waits up to 5 s for a log line matching `pred`; returns it (or undefined). */
  waitForLine: (pred: (l: Record<string, any>) => boolean) => Promise<Record<string, any> | undefined>;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number>;
}

/** Spawns `cmd` with a fresh data dir and waits (up to `timeoutMs`) for the "listening" log line. */
export async function startServer(
  cmd: string[],
  opts: { dataDir: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<RunningServer> {
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      ...serverEnv(opts.dataDir),
      ...opts.env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const parsed: Record<string, any>[] = [];
  let raw = "";
  let port = 0;
  const reader = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      raw += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = raw.indexOf("\n")) >= 0) {
        const line = raw.slice(0, nl);
        raw = raw.slice(nl + 1);
        try {
          const rec = JSON.parse(line);
          parsed.push(rec);
          if (!port && typeof rec.port === "number" && rec.port > 0) port = rec.port;
        } catch {
          parsed.push({ unparsed: line });
        }
      }
    }
  })();
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  while (!port && Date.now() < deadline && proc.exitCode === null) await Bun.sleep(20);
  if (!port) {
    proc.kill("SIGKILL");
    const stderr = await new Response(proc.stderr).text();
    expect(`no port logged; stdout=${JSON.stringify(parsed)} stderr=${stderr}`).toBe("");
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    lines: () => parsed,
    waitForLine: async (pred) => {
      for (let i = 0; i < 250; i++) {
        const hit = parsed.find(pred);
        if (hit) return hit;
        await Bun.sleep(20);
      }
      return undefined;
    },
    stop: async () => {
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      const code = await proc.exited;
      clearTimeout(timer);
      await reader.catch(() => {});
      return code;
    },
  };
}
