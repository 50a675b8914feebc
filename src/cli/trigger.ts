/**
 * `cofre trigger <event> [--api-key K] [--api-url U]` (extensions.md "Events API and `cofre
 * listen`"): makes `<event>` happen in the sandbox of a running Cofre through its public API, as a
 * client would (a test key: `ak_test_...`; key and URL also from `COFRE_API_KEY` / `COFRE_URL`).
 *
 * | event | what it does |
 * |---|---|
 * | charge.created | creates a Pix charge of R$ 19,90 |
 * | charge.paid | creates one and pays it (POST /v1/test_helpers/charges/{id}/pay) |
 * | charge.failed | creates one and cancels it (POST /v1/payments/{id}/cancel) |
 * | charge.expired | creates one expiring in 60 s and moves the test clock 61 s (needs `COFRE_TEST_CLOCK=1`) |
 * | charge.refunded | pays one, refunds it and settles the refund (test helper); when the money is not available yet, moves the test clock to its release first |
 * | payout.created | pays out R$ 1,00 to the account's newest payout destination (registered in the dashboard); funds the sandbox with a paid charge and the test clock when short |
 * | payout.paid / payout.failed | the same, then pays or fails it (test helpers) |
 *
 * Prints one line per step and the ids; exit 0 done, 1 the API refused a step, 2 bad arguments.
 */
import { parseArgs } from "node:util";
import { randomHex } from "../lib/crypto";

export const TRIGGER_EVENTS = [
  "charge.created",
  "charge.paid",
  "charge.failed",
  "charge.expired",
  "charge.refunded",
  "payout.created",
  "payout.paid",
  "payout.failed",
] as const;

export const TRIGGER_USAGE = `usage: cofre trigger <event> [--api-key K] [--api-url U]

Makes <event> happen in the sandbox of a running Cofre (a test key), one of:
  ${TRIGGER_EVENTS.join(", ")}
charge.expired, and charge.refunded / payout.* when the sandbox balance is short, move the
test clock (the server needs COFRE_TEST_CLOCK=1, as \`bun run dev\` sets).
`;

class StepFailed extends Error {}

/** The `error.message` of an error envelope, if `body` is one. */
function envelopeMessage(body: unknown): unknown {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const e = body.error;
  return typeof e === "object" && e !== null && "message" in e ? e.message : undefined;
}

/**
 * Runs the steps of `event` against `apiUrl` with `apiKey`; `out` gets one line per step. Throws StepFailed on a
 * refused step.
 */
export async function trigger(
  event: (typeof TRIGGER_EVENTS)[number],
  apiKey: string,
  apiUrl: string,
  out: (line: string) => void = console.log,
): Promise<void> {
  const base = apiUrl.replace(/\/$/, "");
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { apikey: apiKey, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json().catch(() => ({}));
    return { status: res.status, body: json };
  };
  /** `call`, failing with StepFailed unless the status is in `ok`; the body read as `T` (the route's documented answer). */
  const must = async <T = unknown>(
    what: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    ok = [200, 201],
  ) => {
    const r = await call(method, path, body, headers);
    if (!ok.includes(r.status)) {
      const hint = r.status === 404 && path.includes("/clock/") ? " (the server needs COFRE_TEST_CLOCK=1)" : "";
      throw new StepFailed(
        `${what}: ${method} ${path} answered ${r.status}: ${envelopeMessage(r.body) ?? JSON.stringify(r.body)}${hint}`,
      );
    }
    return r.body as T;
  };
  /** Moves the test clock `seconds` forward; returns the server's time after (epoch ms). */
  const advance = async (seconds: number): Promise<number> => {
    const r = await must<{ now: string }>("moving the test clock", "POST", "/v1/test_helpers/clock/advance", {
      seconds,
    });
    out(`moved the test clock ${seconds} s`);
    return Date.parse(r.now);
  };
  const newCharge = async (amount = 1990, extra: Record<string, unknown> = {}) => {
    const c = await must<{ id: string }>(
      "creating a charge",
      "POST",
      "/v1/pix/charges",
      { amount, description: "cofre trigger", ...extra },
      { "idempotency-key": `trigger-${randomHex(8)}` },
    );
    out(`created charge ${c.id}`);
    return c.id;
  };
  const pay = async (id: string) => {
    await must("paying the charge", "POST", `/v1/test_helpers/charges/${id}/pay`, {});
    out(`paid charge ${id}`);
  };
  /**
   * Makes `need` centavos available: pays a charge when available + pending is short, then moves
   * the test clock to each pending release (`next_release_at`) until enough is available.
   */
  const ensureAvailable = async (need: number) => {
    const balance = () =>
      must<{ available: number; pending: number; next_release_at: string | null }>(
        "reading the balance",
        "GET",
        "/v1/wallets/balance?currency=BRL",
      );
    let b = await balance();
    if (b.available >= need) return;
    if (b.available + b.pending < need) {
      await pay(await newCharge(need * 2));
      b = await balance();
    }
    for (let i = 0; i < 5 && b.available < need; i++) {
      if (!b.next_release_at)
        throw new StepFailed(
          `the sandbox balance (${b.available} available) is short of ${need} and nothing is pending`,
        );
      const now = await advance(1);
      const wait = Math.ceil((Date.parse(b.next_release_at) - now) / 1000) + 1;
      if (wait > 0) await advance(wait);
      b = await balance();
    }
  };

  switch (event) {
    case "charge.created":
      await newCharge();
      return;
    case "charge.paid":
      await pay(await newCharge());
      return;
    case "charge.failed": {
      const id = await newCharge();
      await must("cancelling the charge", "POST", `/v1/payments/${id}/cancel`, {});
      out(`cancelled charge ${id}`);
      return;
    }
    case "charge.expired": {
      await newCharge(1990, { expires_in: 60 });
      await advance(61);
      return;
    }
    case "charge.refunded": {
      const id = await newCharge();
      await pay(id);
      await ensureAvailable(1990);
      const refund = await must<{ id: string }>("refunding the charge", "POST", `/v1/payments/${id}/refund`, {
        idempotencyKey: `trigger-${randomHex(8)}`,
        amount: 1990,
        reason: "cofre trigger",
      });
      out(`refund ${refund.id} requested`);
      await must("settling the refund", "POST", `/v1/test_helpers/refunds/${refund.id}/advance`, { to: "REFUNDED" });
      out(`refund ${refund.id} refunded`);
      return;
    }
    case "payout.created":
    case "payout.paid":
    case "payout.failed": {
      const destinations = await must<{ data?: { id: string }[] }>(
        "reading payout destinations",
        "GET",
        "/v1/payout_destinations",
      );
      const dest = destinations.data?.[0];
      if (!dest)
        throw new StepFailed(
          "no payout destination: register one first (dashboard: Saques, or POST /v1/payout_destinations with an owner's session)",
        );
      await ensureAvailable(1000);
      const po = await must<{ id: string }>(
        "creating a payout",
        "POST",
        "/v1/payouts",
        { amount: 100, destination_id: dest.id, description: "cofre trigger" },
        { "idempotency-key": `trigger-${randomHex(8)}` },
      );
      out(`created payout ${po.id} to ${dest.id}`);
      if (event === "payout.paid") {
        await must("paying the payout", "POST", `/v1/test_helpers/payouts/${po.id}/pay`, {});
        out(`paid payout ${po.id}`);
      } else if (event === "payout.failed") {
        await must("failing the payout", "POST", `/v1/test_helpers/payouts/${po.id}/fail`, {});
        out(`failed payout ${po.id}`);
      }
      return;
    }
  }
}

/** `cofre trigger <event> ...`: exit 0 done, 1 a step refused, 2 bad arguments. */
export async function triggerCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { "api-key": { type: "string" }, "api-url": { type: "string" }, help: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    process.stderr.write(`cofre trigger: ${e instanceof Error ? e.message : String(e)}\n${TRIGGER_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(TRIGGER_USAGE);
    return 0;
  }
  const [event, ...extra] = parsed.positionals;
  const apiKey = parsed.values["api-key"] ?? process.env.COFRE_API_KEY;
  if (!event || extra.length > 0 || !(TRIGGER_EVENTS as readonly string[]).includes(event) || !apiKey) {
    process.stderr.write(
      `cofre trigger: ${!apiKey ? "an API key is needed (--api-key or COFRE_API_KEY)" : `unknown event ${event ?? "(none)"}`}\n${TRIGGER_USAGE}`,
    );
    return 2;
  }
  try {
    await trigger(
      event as (typeof TRIGGER_EVENTS)[number],
      apiKey,
      parsed.values["api-url"] ?? process.env.COFRE_URL ?? "http://localhost:3000",
    );
    return 0;
  } catch (e) {
    if (e instanceof StepFailed) {
      process.stderr.write(`cofre trigger: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
