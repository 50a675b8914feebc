/**
 * stripe-sim expiry sweep (every `sweepMs` under the server, or `POST /_sim/sweep`): by the
 * simulator's clock, an open Checkout Session past `expires_at` expires
 * (`checkout.session.expired`), and a boleto still waiting past its voucher's `expires_at` fails
 * (`payment_intent.payment_failed`, and `checkout.session.async_payment_failed` when it came from
 * Checkout), as Stripe does once a boleto's due date passes unpaid.
 */
import { expireSession, sessionWithExtra } from "./checkout";
import { type SimEnv, nowSec } from "./core";
import { failBoleto } from "./payment-intents";

/** Runs the sweep once; returns how many sessions and boletos expired. */
export function sweepDeadlines(env: SimEnv): { expired: number; boletos_failed: number } {
  let expired = 0;
  let failed = 0;
  for (const id of env.store.due(nowSec(env))) {
    if (id.startsWith("cs_")) {
      const found = sessionWithExtra(env, id);
      if (found && found.doc.status === "open") {
        expireSession(env, found.account, found.doc);
        expired++;
        continue;
      }
    } else if (failBoleto(env, id)) {
      failed++;
      continue;
    }
    env.store.setDeadline(id, null);
  }
  return { expired, boletos_failed: failed };
}
