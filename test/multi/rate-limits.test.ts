// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * Rate limits across three instances on one PostgreSQL database (issue 17; docs/deploy.md "What
 * holds across instances"): each instance counts locally and adds its counts to shared rows every
 * 250 ms (src/store/pg/rate-limits.ts), so the instances together admit the key's limit plus at
 * most what the others admitted before they synced: a bound, not an exact count. Without sharing
 * each instance would admit the whole limit on its own.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, OWNER, startDeployment, type Deployment } from "./support";
import { SYNC_MS } from "../../src/store/pg/rate-limits";

const LIMIT = 30;
/** One request every PACE_MS in all, round robin over the instances. */
const PACE_MS = 25;
const REQUESTS = 120;

let d: Deployment;

beforeAll(async () => {
  d = await startDeployment({ instances: 3, env: { COFRE_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
}, 120_000);

afterAll(async () => {
  await d?.close();
});

test("three instances together admit a key's per-minute limit plus at most what the others admitted between two syncs", async () => {
  const n = d.instances.length;
  // A second key takes the burst; the first one moves the shared clock to the start of a minute,
  // so the burst (3 s) falls in one rate-limit window on every instance.
  const login = await api(d.base, "POST", "/v1/auth/login", { body: OWNER });
  expect(login.status).toBe(200);
  const issued = await api(d.base, "POST", "/v1/api-keys", {
    bearer: login.body.access_token,
    body: { label: "burst", test: true },
  });
  expect(issued.status).toBe(201);
  const probe = await api(d.base, "POST", "/v1/test_helpers/clock/advance", { key: d.apiKey, body: { seconds: 1 } });
  expect(probe.status).toBe(200);
  const intoMinute = Date.parse(probe.body.now) % 60_000;
  const aligned = await api(d.base, "POST", "/v1/test_helpers/clock/advance", {
    key: d.apiKey,
    body: { seconds: Math.ceil((60_000 - intoMinute) / 1000) + 2 },
  });
  expect(aligned.status).toBe(200);
  expect(Date.parse(aligned.body.now) % 60_000).toBeLessThan(5_000);
  // Each instance has heard the clock notice: a charge it creates is stamped at or after `aligned`.
  for (const [k, i] of d.instances.entries()) {
    let stamped = 0;
    for (let tries = 0; tries < 250 && stamped < Date.parse(aligned.body.now); tries++) {
      if (tries > 0) await Bun.sleep(20);
      const c = await api(i.base, "POST", "/v1/pix/charges", {
        key: d.apiKey,
        body: { amount: 100, description: "clock probe" },
        headers: { "idempotency-key": `rate-clock-${k}-${tries}` },
      });
      expect(c.status).toBe(201);
      stamped = Date.parse(c.body.created_at);
    }
    expect(stamped).toBeGreaterThanOrEqual(Date.parse(aligned.body.now));
  }

  // REQUESTS pings, one every PACE_MS, request k to instance k mod n (each gets one per n x PACE_MS).
  const start = performance.now();
  const answers: Promise<number>[] = [];
  for (let k = 0; k < REQUESTS; k++) {
    const wait = start + k * PACE_MS - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const i = d.instances[k % n]!;
    answers.push(api(i.base, "GET", "/v1/ping", { key: issued.body.apiKey }).then((r) => r.status));
  }
  const statuses = await Promise.all(answers);
  const elapsed = performance.now() - start;
  expect(elapsed).toBeLessThan(55_000); // still inside the window
  expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  const admitted = statuses.filter((s) => s === 200).length;

  // What one instance admits while another has not yet learned of it: up to one sync interval on
  // each side (the admitting instance's, then the reading instance's), at its request rate.
  const perInstanceBetweenSyncs = Math.ceil((2 * SYNC_MS) / (n * PACE_MS)) + 1;
  const bound = LIMIT + (n - 1) * perInstanceBetweenSyncs;
  console.log(
    `multi: ${admitted} of ${REQUESTS} requests admitted over ${n} instances in ${elapsed.toFixed(0)} ms (limit ${LIMIT}, bound ${bound}, unshared would be ${n * LIMIT})`,
  );
  expect(admitted).toBeGreaterThanOrEqual(LIMIT);
  expect(admitted).toBeLessThanOrEqual(bound);
  expect(bound).toBeLessThan(n * LIMIT);
}, 60_000);
