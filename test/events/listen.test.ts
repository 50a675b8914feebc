/**
 * `cofre listen` and `cofre trigger` (extensions.md "Events API and `cofre listen`"): the listener
 * follows GET /v1/events of a running Cofre and forwards every event of a sandbox flow, signed with
 * its local secret (checked here with the `standardwebhooks` library and the Stripe-style header),
 * byte for byte as the API serves it; stopped and started again it keeps its secret and forwards
 * what was created meanwhile, nothing twice. `trigger` makes each supported event happen.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { createHarness, type Harness } from "../support/harness";
import { loginToken } from "../auth/support";
import { startReceiver, type Receiver } from "../webhooks/support";
import { startListener, type Listener } from "../../src/cli/listen";
import { trigger, TRIGGER_EVENTS } from "../../src/cli/trigger";
import { hmacHex } from "../../src/lib/crypto";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The harness's app on a real loopback port (the listener is an HTTP client). */
function serve(h: Harness): string {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req) });
  cleanups.push(() => server.stop(true));
  return `http://127.0.0.1:${server.port}`;
}

function receiver(): Receiver {
  const rx = startReceiver();
  cleanups.push(() => rx.stop());
  return rx;
}

function tempState(): string {
  const dir = mkdtempSync(join(tmpdir(), "cofre-listen-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, "state", "listen.json");
}

/** Waits (polling, at most 10 s) until `cond()`; throws with `what` otherwise. */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await Bun.sleep(10);
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

function listen(url: string, key: string, forwardTo: string, statePath: string, lines: string[]): Listener {
  const l = startListener({
    forwardTo,
    apiKey: key,
    apiUrl: url,
    statePath,
    pollMs: 20,
    out: (x) => lines.push(x),
    err: (x) => lines.push(x),
  });
  cleanups.push(() => l.stop());
  return l;
}

const secretOf = (lines: string[]) => /whsec_[A-Za-z0-9+/=]+/.exec(lines.join("\n"))?.[0];

describe("cofre listen", () => {
  test("forwards every event of a sandbox flow, signed, including those created while it was stopped, each once", async () => {
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount();
    const url = serve(h);
    const rx = receiver();
    const state = tempState();
    const before = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "before-listen" },
      body: { amount: 500 },
    });
    expect(before.status).toBe(201);

    const lines1: string[] = [];
    const first = listen(url, a.testKey, rx.url, state, lines1);
    await first.ready;
    const secret = secretOf(lines1)!;
    expect(secret).toMatch(/^whsec_/);
    expect(statSync(state).mode & 0o777).toBe(0o600);
    await trigger("charge.paid", a.testKey, url, () => {});
    await until(() => rx.requests.length === 2, "the first two events");
    await first.stop();

    await trigger("charge.failed", a.testKey, url, () => {}); // while stopped
    await trigger("charge.created", a.testKey, url, () => {});
    const lines2: string[] = [];
    const second = listen(url, a.testKey, rx.url, state, lines2);
    await second.ready;
    expect(secretOf(lines2)).toBe(secret);
    await until(() => rx.requests.length === 5, "the events created while stopped");
    await trigger("charge.paid", a.testKey, url, () => {});
    await until(() => rx.requests.length === 7, "the events after the restart");
    await Bun.sleep(100); // a few more polls: nothing is forwarded twice
    expect(rx.requests.length).toBe(7);

    const sent = rx.requests.map((r) => JSON.parse(r.body));
    expect(sent.map((e) => e.type)).toEqual([
      "charge.created",
      "charge.paid",
      "charge.created",
      "charge.failed",
      "charge.created",
      "charge.created",
      "charge.paid",
    ]);
    expect(sent.map((e) => e.data.object.id)).not.toContain(before.body.id); // older than the first start
    const all = (await h.call("GET", "/v1/events?limit=100", { key: a.testKey })).body.data;
    expect(all.length).toBe(8);
    const wh = new Webhook(secret);
    const hex = Buffer.from(secret.slice("whsec_".length), "base64").toString("utf8");
    for (const req of rx.requests) {
      expect(() => wh.verify(req.body, req.headers)).not.toThrow();
      const [t, v1] = req.headers["x-cofre-signature"]!.split(",");
      expect(v1).toBe(`v1=${hmacHex(hex, `${t!.slice(2)}.${req.body}`)}`);
      const evt = JSON.parse(req.body);
      expect(req.headers["x-cofre-event-type"]).toBe(evt.type);
      expect(req.headers["webhook-id"]).toBe(req.headers["x-cofre-delivery-id"]!);
      expect((await h.call("GET", `/v1/events/${evt.id}`, { key: a.testKey })).text).toBe(req.body);
    }
    expect(() =>
      new Webhook(Buffer.from("another secret").toString("base64")).verify(
        rx.requests[0]!.body,
        rx.requests[0]!.headers,
      ),
    ).toThrow();
  }, 30_000);

  test("--events keeps only the named types and families", async () => {
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount();
    const url = serve(h);
    const rx = receiver();
    const l = startListener({
      forwardTo: rx.url,
      apiKey: a.testKey,
      apiUrl: url,
      statePath: tempState(),
      pollMs: 20,
      events: "charge.paid",
      out: () => {},
    });
    cleanups.push(() => l.stop());
    await l.ready;
    await trigger("charge.paid", a.testKey, url, () => {});
    await trigger("charge.failed", a.testKey, url, () => {});
    await trigger("charge.paid", a.testKey, url, () => {});
    await until(() => rx.requests.length === 2, "two charge.paid");
    await Bun.sleep(100);
    expect(rx.requests.map((r) => JSON.parse(r.body).type)).toEqual(["charge.paid", "charge.paid"]);
  }, 30_000);

  test("the `cofre listen` command prints its secret, forwards signed events and exits 0 on SIGINT", async () => {
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount();
    const url = serve(h);
    const rx = receiver();
    const state = tempState();
    const child = Bun.spawn(
      [
        "bun",
        join(import.meta.dir, "../../src/main.ts"),
        "listen",
        "--forward-to",
        rx.url,
        "--api-key",
        a.testKey,
        "--api-url",
        url,
        "--state",
        state,
      ],
      {
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      },
    );
    cleanups.push(() => child.kill());
    const reader = child.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
    const secret = secretOf([out])!;
    expect(out).toMatch(
      /^Ready! Forwarding events of http:\/\/127\.0\.0\.1:\d+ to http:\/\/127\.0\.0\.1:\d+\/hook\. Your webhook signing secret is whsec_\S+ \(\^C to quit\)\n/,
    );
    // The first poll records where it starts in the state file.
    const started = () => {
      try {
        return Object.keys(JSON.parse(readFileSync(state, "utf8")).streams).length === 1;
      } catch {
        return false;
      }
    };
    await until(started, "the listener's starting point");
    await trigger("charge.paid", a.testKey, url, () => {});
    await until(() => rx.requests.length === 2, "two forwarded events");
    for (const req of rx.requests) expect(() => new Webhook(secret).verify(req.body, req.headers)).not.toThrow();
    child.kill("SIGINT");
    expect(await child.exited).toBe(0);
  }, 30_000);

  test("a refused key ends the listener with 1 and a message", async () => {
    const h = createHarness();
    const url = serve(h);
    const lines: string[] = [];
    const l = listen(url, "ak_test_nope", "http://127.0.0.1:9/hook", tempState(), lines);
    expect(await l.done).toBe(1);
    expect(lines.join("\n")).toContain("GET /v1/events answered 401");
  });
});

describe("cofre trigger", () => {
  test("each supported event happens in the sandbox, moving the test clock to the release of pending money", async () => {
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount({ settings: { settlementDelaySeconds: 600 } });
    const url = serve(h);
    const token = await loginToken(h, a.email, a.password);
    expect(
      (
        await h.call("POST", "/v1/payout_destinations", {
          bearer: token,
          body: { type: "pix_key", pix_key_type: "email", pix_key: "fulano@example.com" },
        })
      ).status,
    ).toBe(201);
    for (const event of TRIGGER_EVENTS) {
      const steps: string[] = [];
      await trigger(event, a.testKey, url, (l) => steps.push(l));
      // The object this run made (the last id its steps printed) has the event.
      const made = [...steps.join(" ").matchAll(/\b(ch|po)_[0-9a-f]{32}\b/g)]
        .map((m) => m[0])
        .filter((id) => id.startsWith(event.startsWith("payout") ? "po_" : "ch_"))
        .pop();
      const r = await h.call("GET", `/v1/events?type=${event}&limit=100`, { key: a.testKey });
      expect({ event, objects: r.body.data.map((e: any) => e.data.object.id) }).toEqual({
        event,
        objects: expect.arrayContaining([made]),
      });
    }
  }, 60_000);

  test("a payout without a destination fails with a message naming what to do", async () => {
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount();
    const url = serve(h);
    await expect(trigger("payout.created", a.testKey, url, () => {})).rejects.toThrow("no payout destination");
  });
});
