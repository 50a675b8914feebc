/**
 * `cofre listen --forward-to URL [--events a,b] [--api-key K] [--api-url U] [--state FILE]`
 * (extensions.md "Events API and `cofre listen`"): follows GET /v1/events of a running Cofre (local
 * or remote) and POSTs each new event, oldest first, to URL, signed with a local secret as a
 * registered endpoint's deliveries are (X-Cofre-Signature and the Standard Webhooks headers,
 * src/domain/webhooks/signing.ts). No public URL and no endpoint registration: only an API key.
 *
 * The secret (`whsec_` + base64 of the 64-hex secret's UTF-8 bytes, so `new Webhook(secret)` of the
 * `standardwebhooks` library takes it as printed; the `X-Cofre-Signature` key is the hex itself) is
 * printed once at start and kept in the state file, with, per API URL and key, where the listener
 * stopped: a restart forwards every event created while it was stopped (within the 30 days the
 * API keeps them). The first start of a URL and key begins with the events created from then on.
 * State file: `--state`, else `COFRE_LISTEN_STATE`, else `$XDG_CONFIG_HOME/cofre/listen.json`
 * (`~/.config/cofre/listen.json`), written with mode 0600.
 *
 * An event is forwarded until the target answers (any status below 500 counts as handed over and
 * is printed); a 5xx or a connection failure is retried on the next poll, and the events after it
 * wait (order is kept). Key and URL also come from `COFRE_API_KEY` and `COFRE_URL` (default
 * `http://localhost:3000`).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { randomHex, sha256Hex } from "../lib/crypto";
import { deliveryHeaders } from "../domain/webhooks/signing";

export const LISTEN_USAGE = `usage: cofre listen --forward-to URL [--events a,b] [--api-key K] [--api-url U] [--state FILE]

Follows the events API (GET /v1/events) of a running Cofre and POSTs each new event to URL,
signed with a local secret printed at start (whsec_..., the same on every start). Events created
while it was stopped are forwarded when it starts again.
  --forward-to URL   where to POST each event (required)
  --events a,b       event names or families (charge.*, payout.*); default every canonical event
  --api-key K        an API key (default: $COFRE_API_KEY); its mode is the one followed
  --api-url U        the Cofre to follow (default: $COFRE_URL or http://localhost:3000)
  --state FILE       secret and resume points (default: $COFRE_LISTEN_STATE or ~/.config/cofre/listen.json)
`;

/**
 * How far back (ms) each poll looks again before the last seen event: units commit slightly after their `created_at`.
 */
const OVERLAP_MS = 10_000;

export interface ListenOptions {
  forwardTo: string;
  apiKey: string;
  apiUrl: string;
  statePath: string;
  /** `type` filter of GET /v1/events (names or families, comma-separated). */
  events?: string;
  /** Pause between polls (ms); default 500. */
  pollMs?: number;
  /** Where lines go (default stdout / stderr). */
  out?: (line: string) => void;
  err?: (line: string) => void;
}

interface Stream {
  /** `created_at` (epoch ms) of the newest forwarded event. */
  after: number;
  /** Ids forwarded with `created_at` >= after - OVERLAP_MS (not forwarded twice). */
  seen: string[];
}

interface State {
  secret: string;
  streams: Record<string, Stream>;
}

interface ApiEvent {
  id: string;
  type: string;
  created_at: string;
}

/** The default state file: `$XDG_CONFIG_HOME/cofre/listen.json` or `~/.config/cofre/listen.json`. */
export function defaultStatePath(env: Record<string, string | undefined> = process.env): string {
  if (env.COFRE_LISTEN_STATE) return env.COFRE_LISTEN_STATE;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "cofre", "listen.json");
}

function readState(path: string): State {
  if (existsSync(path)) {
    const s = JSON.parse(readFileSync(path, "utf8")) as Partial<State>;
    if (typeof s.secret === "string" && /^[0-9a-f]{64}$/.test(s.secret))
      return { secret: s.secret, streams: s.streams ?? {} };
  }
  const fresh = { secret: randomHex(32), streams: {} };
  writeState(path, fresh);
  return fresh;
}

function writeState(path: string, state: State): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The `whsec_` form of a 64-hex secret: base64 of its UTF-8 bytes (the HMAC key of both schemes). */
export function whsec(hexSecret: string): string {
  return `whsec_${Buffer.from(hexSecret, "utf8").toString("base64")}`;
}

/** The signing secret (`whsec_...`) of the state file at `path`, created when missing. */
export function listenSecret(path: string): string {
  return whsec(readState(path).secret);
}

export interface Listener {
  /** Resolves after the first poll (the starting point is known). */
  ready: Promise<void>;
  /** Stops polling and saves the state; resolves when stopped. */
  stop(): Promise<void>;
  /** Resolves when the loop ends: 0 stopped, 1 the API refused the key or the query. */
  done: Promise<number>;
}

/** Starts following the events API (module doc). */
export function startListener(opts: ListenOptions): Listener {
  const out = opts.out ?? ((l) => console.log(l));
  const err = opts.err ?? ((l) => console.error(l));
  const base = opts.apiUrl.replace(/\/$/, "");
  const state = readState(opts.statePath);
  const streamKey = `${base} ${sha256Hex(opts.apiKey).slice(0, 16)}${opts.events ? ` ${opts.events}` : ""}`;
  let stopped = false;
  let wake: (() => void) | null = null;
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  let unreachable = false;

  const get = async (query: URLSearchParams) => {
    const res = await fetch(`${base}/v1/events?${query}`, { headers: { apikey: opts.apiKey } });
    const body = (await res.json().catch(() => ({}))) as {
      data?: ApiEvent[];
      has_more?: boolean;
      next_cursor?: string | null;
      error?: { message?: string };
    };
    if (res.status !== 200) throw new ApiRefused(res.status, body.error?.message ?? `HTTP ${res.status}`);
    return body as { data: ApiEvent[]; has_more: boolean; next_cursor: string | null };
  };

  /** Every event newer than `sinceMs` (ISO exclusive bound), oldest first, as raw JSON texts. */
  const fetchSince = async (sinceMs: number): Promise<{ ev: ApiEvent; raw: string }[]> => {
    const all: { ev: ApiEvent; raw: string }[] = [];
    let cursor: string | null = null;
    for (;;) {
      const q = new URLSearchParams({ limit: "100", created_after: new Date(sinceMs).toISOString() });
      if (opts.events) q.set("type", opts.events);
      if (cursor) q.set("starting_after", cursor);
      const page = await get(q);
      for (const ev of page.data) all.push({ ev, raw: JSON.stringify(ev) });
      if (!page.has_more || !page.next_cursor) break;
      cursor = page.next_cursor;
    }
    return all.reverse();
  };

  const forward = async (ev: ApiEvent, body: string): Promise<boolean> => {
    const deliveryId = `wd_${ev.id.replace(/^evt_/, "")}`;
    const headers = deliveryHeaders({
      deliveryId,
      eventType: ev.type,
      family: "canonical",
      body,
      secret: state.secret,
      timestamp: Math.floor(Date.now() / 1000),
    });
    headers["User-Agent"] = "Cofre-Listen/1.0";
    out(`${new Date().toISOString()}   --> ${ev.type} [${ev.id}]`);
    try {
      const res = await fetch(opts.forwardTo, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer().catch(() => {});
      out(`${new Date().toISOString()}  <--  [${res.status}] POST ${opts.forwardTo} [${ev.id}]`);
      return res.status < 500;
    } catch (e) {
      err(
        `${new Date().toISOString()}  <--  POST ${opts.forwardTo} failed (${e instanceof Error ? e.message : String(e)}) [${ev.id}]; retrying on the next poll`,
      );
      return false;
    }
  };

  const poll = async (): Promise<void> => {
    let stream = state.streams[streamKey];
    if (!stream) {
      // First start for this API and key: begin after the newest existing event.
      const q = new URLSearchParams({ limit: "1" });
      if (opts.events) q.set("type", opts.events);
      const newest = (await get(q)).data[0];
      stream = state.streams[streamKey] = newest
        ? { after: Date.parse(newest.created_at), seen: [newest.id] }
        : { after: 0, seen: [] };
      writeState(opts.statePath, state);
      return;
    }
    const seen = new Set(stream.seen);
    const fresh = (await fetchSince(stream.after - OVERLAP_MS)).filter((e) => !seen.has(e.ev.id));
    for (const { ev, raw } of fresh) {
      if (stopped) break;
      if (!(await forward(ev, raw))) break;
      const at = Date.parse(ev.created_at);
      stream.after = Math.max(stream.after, at);
      seen.add(ev.id);
      stream.seen = [...seen];
      writeState(opts.statePath, state);
    }
  };

  const done = (async (): Promise<number> => {
    out(
      `Ready! Forwarding events of ${base} to ${opts.forwardTo}. Your webhook signing secret is ${whsec(state.secret)} (^C to quit)`,
    );
    let first = true;
    while (!stopped) {
      try {
        await poll();
        if (unreachable) out(`${base} reachable again`);
        unreachable = false;
      } catch (e) {
        if (e instanceof ApiRefused && e.status < 500) {
          err(`cofre listen: GET /v1/events answered ${e.status}: ${e.message}`);
          readyResolve();
          return 1;
        }
        if (!unreachable)
          err(`cofre listen: cannot read ${base}/v1/events (${e instanceof Error ? e.message : String(e)}); retrying`);
        unreachable = true;
      }
      if (first && !unreachable) {
        first = false;
        readyResolve();
      }
      // Forget ids the overlap no longer reaches.
      const stream = state.streams[streamKey];
      if (stream && stream.seen.length > 5000) stream.seen = stream.seen.slice(-5000);
      if (stopped) break;
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, opts.pollMs ?? 500);
      });
    }
    writeState(opts.statePath, state);
    return 0;
  })();

  return {
    ready,
    done,
    async stop() {
      stopped = true;
      wake?.();
      await done;
    },
  };
}

class ApiRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `cofre listen ...`: runs until SIGINT/SIGTERM (exit 0); bad arguments exit 2; a refused key exits 1. */
export async function listenCommand(args: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        "forward-to": { type: "string" },
        events: { type: "string" },
        "api-key": { type: "string" },
        "api-url": { type: "string" },
        state: { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`cofre listen: ${e instanceof Error ? e.message : String(e)}\n${LISTEN_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(LISTEN_USAGE);
    return 0;
  }
  const forwardTo = values["forward-to"] as string | undefined;
  const apiKey = (values["api-key"] as string | undefined) ?? process.env.COFRE_API_KEY;
  if (!forwardTo || !/^https?:\/\//.test(forwardTo) || !apiKey) {
    process.stderr.write(
      `cofre listen: ${!apiKey ? "an API key is needed (--api-key or COFRE_API_KEY)" : "--forward-to must be an http(s) URL"}\n${LISTEN_USAGE}`,
    );
    return 2;
  }
  const listener = startListener({
    forwardTo,
    apiKey,
    apiUrl: (values["api-url"] as string | undefined) ?? process.env.COFRE_URL ?? "http://localhost:3000",
    statePath: (values.state as string | undefined) ?? defaultStatePath(),
    events: values.events as string | undefined,
  });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void listener.stop());
  return await listener.done;
}
