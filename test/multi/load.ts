/**
 * The load of the multi-instance test (test/multi/instances.test.ts): charge creates with an
 * Idempotency-Key (a share resent, some concurrently so one key reaches two instances), sandbox
 * payments, partial refunds and MED cases opened and resolved, all through the load balancer by
 * concurrent workers, while `onProgress` may kill and restart an instance. What was acknowledged
 * (2xx) is recorded for the checks; a request whose answer was lost (connection cut, 502/503/504
 * from the balancer) is retried as a client would: with the same key, or by reading the state.
 */
import { api, type Answer } from "./support";

/** One acknowledged charge: its create answer and what was acknowledged about it since. */
export interface AckedCharge {
  key: string;
  created: any;
  paid: boolean;
  /** Acknowledged refunds: id -> amount. */
  refunds: Map<string, number>;
  /** The MED case opened on it and its last acknowledged status (null: its answer was lost). */
  med?: { id: string | null; status: string };
}

export interface LoadResult {
  charges: Map<string, AckedCharge>;
  /** Charge ids each key was answered with (2xx), over every send of the key. */
  idsByKey: Map<string, Set<string>>;
  /** Keys whose every send failed or was refused as in use: retried by `retryDeferred` after the clock moved. */
  deferred: { key: string; body: unknown }[];
  /** Refunds whose key was in use by a request the kill cut (retried by `retryDeferred`). */
  deferredRefunds: { chargeId: string; body: { idempotencyKey: string; amount: number } }[];
  /** Answers no client should ever get (5xx from Cofre itself, unexpected 4xx), with what caused them. */
  unexpected: string[];
  counts: { requests: number; lost: number; replays: number; inUse: number; concurrentSends: number };
}

const LOST = new Set([502, 503, 504]);

/** Options of `runLoad`. */
export interface LoadOptions {
  base: string;
  key: string;
  /** Charges to create (default 90). */
  charges?: number;
  /** Concurrent workers (default 6). */
  workers?: number;
  /** A run id that makes the keys unique. */
  runId: string;
  /** Called after each acknowledged create with the count so far (the test kills an instance from here). */
  onProgress?: (acked: number) => void;
  /**
   * Awaited before charge `i` is created (the test holds the last part of the load until the killed instance is back).
   */
  beforeCharge?: (i: number) => Promise<void>;
}

/** Drives the load and returns what was acknowledged (see the module header). */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const total = o.charges ?? 90;
  const res: LoadResult = {
    charges: new Map(),
    idsByKey: new Map(),
    deferred: [],
    deferredRefunds: [],
    unexpected: [],
    counts: { requests: 0, lost: 0, replays: 0, inUse: 0, concurrentSends: 0 },
  };
  const deadline = Date.now() + 60_000;

  /** One request; a network failure is answered as status 0. */
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer> => {
    res.counts.requests++;
    try {
      return await api(o.base, method, path, { key: o.key, body, headers, timeoutMs: 15_000 });
    } catch (e) {
      return { status: 0, body: { error: { message: String(e) } }, headers: new Headers() };
    }
  };
  const lost = (r: Answer) => r.status === 0 || LOST.has(r.status);
  const note = (what: string, r: Answer) =>
    res.unexpected.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  const record = (key: string, r: Answer) => {
    let ids = res.idsByKey.get(key);
    if (!ids) res.idsByKey.set(key, (ids = new Set()));
    ids.add(r.body.id);
    if (r.headers.get("idempotent-replayed") === "true") res.counts.replays++;
  };

  /**
   * Sends a create (`copies` at once the first time) until one is acknowledged. Refused as in use
   * ten times in a row (2 s), the key is deferred: its holder died mid-request and its claim
   * blocks the key for 60 s of service time, which the drain's clock advance moves past.
   */
  const create = async (key: string, body: unknown, copies: number): Promise<Answer | null> => {
    let inUseRounds = 0;
    while (Date.now() < deadline) {
      const answers = await Promise.all(
        Array.from({ length: copies }, () => send("POST", "/v1/pix/charges", body, { "idempotency-key": key })),
      );
      if (copies > 1) res.counts.concurrentSends++;
      copies = 1;
      let acked: Answer | null = null;
      let inUse = false;
      for (const r of answers) {
        if (r.status === 201 || r.status === 200) {
          record(key, r);
          acked ??= r;
        } else if (r.status === 409 && r.body?.error?.code === "idempotency_key_in_use") {
          res.counts.inUse++;
          inUse = true;
        } else if (lost(r)) res.counts.lost++;
        else note(`create ${key}`, r);
      }
      if (acked) return acked;
      if (inUse && ++inUseRounds >= 10) break;
      await Bun.sleep(inUse ? 200 : 50);
    }
    res.deferred.push({ key, body });
    return null;
  };

  /** Sends `fn` until it is answered (not lost); returns the answer, or null out of time. */
  const until = async (fn: () => Promise<Answer>): Promise<Answer | null> => {
    while (Date.now() < deadline) {
      const r = await fn();
      if (!lost(r)) return r;
      res.counts.lost++;
      await Bun.sleep(50);
    }
    return null;
  };

  const one = async (i: number) => {
    const key = `multi-${o.runId}-${String(i).padStart(4, "0")}`;
    const paid = i % 3 === 0;
    // Unpaid charges expire in the drain (the one shared expiry sweep job runs then).
    const body = { amount: 1000 + i * 37, description: key, expires_in: 600 };
    const created = await create(key, body, i % 7 === 0 ? 2 : 1);
    if (!created) return;
    const id = created.body.id as string;
    const c: AckedCharge = { key, created: created.body, paid: false, refunds: new Map() };
    res.charges.set(id, c);
    o.onProgress?.(res.charges.size);
    if (i % 5 === 1) {
      // A plain resend after the answer: the same charge, replayed.
      const again = await until(() => send("POST", "/v1/pix/charges", body, { "idempotency-key": key }));
      if (again && (again.status === 200 || again.status === 201)) record(key, again);
      else if (again) note(`resend ${key}`, again);
    }
    if (!paid) return;
    let first = true;
    const pay = await until(async () => {
      const r = await send("POST", `/v1/test_helpers/charges/${id}/pay`, {});
      if (!first && r.status === 400 && r.body?.error?.code === "invalid_state") return { ...r, status: 200 }; // a lost pay had committed
      first = false;
      return r;
    });
    if (pay?.status !== 200) {
      if (pay) note(`pay ${id}`, pay);
      return;
    }
    c.paid = true;
    const raw = id.replace(/^ch_/, "");
    if (i % 6 === 0) {
      for (const n of [1, 2]) {
        const amount = 100 * n + (i % 50);
        const body = { idempotencyKey: `re-${key}-${n}`, amount };
        const r = await until(() => send("POST", `/v1/payments/${raw}/refund`, body));
        if (r && r.status === 201) c.refunds.set(r.body.id, amount);
        else if (r?.status === 409 && r.body?.error?.code === "idempotency_key_in_use")
          res.deferredRefunds.push({ chargeId: id, body });
        else if (r) note(`refund ${id}`, r);
      }
    } else if (i % 6 === 3) {
      let firstOpen = true;
      let unknown = false;
      const opened = await until(async () => {
        const r = await send("POST", `/v1/test_helpers/charges/${id}/med`, {});
        if (!firstOpen && r.status === 400 && r.body?.error?.code === "invalid_state") unknown = true;
        firstOpen = false;
        return r;
      });
      if (unknown) {
        c.med = { id: null, status: "unknown" };
        return;
      }
      if (opened?.status !== 201) {
        if (opened) note(`med ${id}`, opened);
        return;
      }
      c.med = { id: opened.body.id, status: opened.body.status };
      const outcome = i % 12 === 3 ? "merchant_favor" : "upheld";
      let firstResolve = true;
      const resolved = await until(async () => {
        const r = await send("POST", `/v1/test_helpers/med/cases/${opened.body.id}/resolve`, { outcome });
        if (!firstResolve && r.status === 400 && r.body?.error?.code === "invalid_state") c.med!.status = "unknown";
        firstResolve = false;
        return r;
      });
      if (resolved?.status === 200) c.med.status = resolved.body.status;
      else if (resolved && c.med.status !== "unknown") note(`resolve ${opened.body.id}`, resolved);
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < total && Date.now() < deadline) {
      const i = next++;
      await o.beforeCharge?.(i);
      await one(i);
    }
  };
  await Promise.all(Array.from({ length: o.workers ?? 6 }, worker));
  return res;
}

/** Sends each deferred create and refund again (the service clock has moved past the dead holder's claim); returns the ones still not acknowledged. */
export async function retryDeferred(base: string, key: string, res: LoadResult): Promise<string[]> {
  const left: string[] = [];
  for (const d of res.deferred) {
    let done = false;
    for (let t = 0; t < 20 && !done; t++) {
      const r = await api(base, "POST", "/v1/pix/charges", {
        key,
        body: d.body,
        headers: { "idempotency-key": d.key },
      }).catch(() => null);
      if (r && (r.status === 200 || r.status === 201)) {
        let ids = res.idsByKey.get(d.key);
        if (!ids) res.idsByKey.set(d.key, (ids = new Set()));
        ids.add(r.body.id);
        res.charges.set(r.body.id, { key: d.key, created: r.body, paid: false, refunds: new Map() });
        done = true;
      } else await Bun.sleep(100);
    }
    if (!done) left.push(d.key);
  }
  for (const d of res.deferredRefunds) {
    const r = await api(base, "POST", `/v1/payments/${d.chargeId.replace(/^ch_/, "")}/refund`, {
      key,
      body: d.body,
    }).catch(() => null);
    if (r?.status === 201 || r?.status === 200) res.charges.get(d.chargeId)!.refunds.set(r.body.id, d.body.amount);
    else left.push(`${d.body.idempotencyKey}: ${r?.status} ${JSON.stringify(r?.body)}`);
  }
  return left;
}

/** The fields of a create answer that a later GET must repeat exactly (status, settlement and metadata.med move on). */
export function stableFields(charge: any): Record<string, unknown> {
  const { id, object, amount, currency, payment_method, customer, pix, checkout_url, created_at, metadata } = charge;
  return {
    id,
    object,
    amount,
    currency,
    payment_method,
    customer,
    pix,
    checkout_url,
    created_at,
    description: metadata?.description,
  };
}
