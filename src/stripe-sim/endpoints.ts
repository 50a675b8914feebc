/**
 * stripe-sim webhook endpoints and the key check (ROUTES.md): `GET /v1/account`,
 * `POST /v1/webhook_endpoints` `{url, enabled_events[]}` (the answer alone carries `secret`
 * `whsec_...`), `GET /v1/webhook_endpoints[/:id]`, `DELETE /v1/webhook_endpoints/:id`.
 */
import type Stripe from "stripe";
import { type ApiCtx, type Reply, load, nowSec } from "./core";
import { invalid, missing } from "./errors";
import { secret } from "./ids";
import { listPage } from "./lists";
import { account, webhookEndpoint } from "./objects";

/** `GET /v1/account`. */
export function getAccount(ctx: ApiCtx): Reply {
  return { status: 200, body: account(ctx.account.id, ctx.account.email, ctx.account.created) };
}

/** `POST /v1/webhook_endpoints`. */
export function createEndpoint(ctx: ApiCtx): Reply {
  const f = ctx.form.only(["url", "enabled_events", "description", "metadata", "api_version", "connect"]);
  const url = f.reqStr("url");
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
  } catch {
    throw invalid("url", "Invalid URL: URL must be publicly accessible (http or https).", "url_invalid");
  }
  const events = f.strs("enabled_events");
  if (!events || events.length === 0) throw missing("enabled_events");
  const ep = webhookEndpoint({
    url,
    enabled_events: events,
    description: f.str("description") ?? null,
    metadata: f.metadata() ?? {},
    api_version: f.str("api_version") ?? null,
    created: nowSec(ctx.env),
  });
  const whsec = secret("whsec");
  ctx.env.store.tx(() => {
    ctx.env.store.insert(ctx.account.id, "webhook_endpoint", ep);
    ctx.env.store.setEndpointSecret(ep.id, whsec);
  });
  return { status: 200, body: { ...ep, secret: whsec } satisfies Stripe.WebhookEndpoint };
}

/** `GET /v1/webhook_endpoints`. */
export function listEndpoints(ctx: ApiCtx): Reply {
  ctx.form.only(["limit", "starting_after", "ending_before"]);
  const docs = ctx.env.store
    .list(ctx.account.id, "webhook_endpoint")
    .map((r) => JSON.parse(r.doc) as Stripe.WebhookEndpoint);
  return { status: 200, body: listPage(ctx, docs, "/v1/webhook_endpoints") };
}

/** `GET /v1/webhook_endpoints/:id`. */
export function getEndpoint(ctx: ApiCtx): Reply {
  return { status: 200, body: load(ctx.env, ctx.account.id, "webhook_endpoint", ctx.params.id!) };
}

/** `DELETE /v1/webhook_endpoints/:id`. */
export function deleteEndpoint(ctx: ApiCtx): Reply {
  const ep = load(ctx.env, ctx.account.id, "webhook_endpoint", ctx.params.id!);
  ctx.env.store.remove(ep.id);
  return {
    status: 200,
    body: { id: ep.id, object: "webhook_endpoint", deleted: true } satisfies Stripe.DeletedWebhookEndpoint,
  };
}
