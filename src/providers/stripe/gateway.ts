/**
 * The Stripe side of connecting an account (the domain's CardConnectionGateway port,
 * src/domain/card-provider/port.ts): the key check (`GET /v1/account`), Cofre's webhook endpoint
 * (`POST /v1/webhook_endpoints`, every event), its removal, signature verification of events and
 * the event list of the periodic sweep; plus the one pool per stored connection version of its
 * provider and client.
 */
import type {
  CardConnectionGateway,
  CardConnectionSpec,
  CardConnectResult,
  EventPage,
  VerifiedEvent,
} from "../../domain/card-provider/port";
import type { PaymentProvider, ProviderContext } from "../../domain/providers/types";
import { constructEvent, type Stripe, stripeClient, stripeFailureText } from "./client";

interface PoolEntry {
  version: string;
  provider?: PaymentProvider;
  client?: Promise<Stripe>;
}

export class StripeConnectionGateway implements CardConnectionGateway {
  private readonly pool = new Map<string, PoolEntry>();

  constructor(private readonly ctx: ProviderContext) {}

  /** A new client (the context's fetch, read at each call, so tests can wrap it). */
  client(apiBase: string, secretKey: string): Stripe {
    return stripeClient(apiBase, secretKey, (input, init) => this.ctx.fetch(input, init));
  }

  private entry(id: string, version: string): PoolEntry {
    let e = this.pool.get(id);
    if (!e || e.version !== version) this.pool.set(id, (e = { version }));
    return e;
  }

  /** The provider of connection `id` at `version`, built once per version. */
  provider(id: string, version: string, build: () => PaymentProvider): PaymentProvider {
    const e = this.entry(id, version);
    return (e.provider ??= build());
  }

  /** The client of connection `id` at `version`; `open` opens its secrets once (a failure is not cached). */
  pooled(id: string, version: string, open: () => Promise<CardConnectionSpec>): Promise<Stripe> {
    const e = this.entry(id, version);
    if (!e.client) {
      const p = open().then((spec) => this.client(spec.apiBase, spec.secretKey));
      e.client = p;
      p.catch(() => {
        if (e.client === p) e.client = undefined;
      });
    }
    return e.client;
  }

  async connect(
    spec: Pick<CardConnectionSpec, "apiBase" | "secretKey">,
    webhookUrl: string,
  ): Promise<CardConnectResult> {
    const stripe = this.client(spec.apiBase, spec.secretKey);
    let account: Stripe.Account;
    try {
      account = await stripe.accounts.retrieveCurrent();
    } catch (err) {
      return { ok: false, message: stripeFailureText(err) };
    }
    try {
      const endpoint = await stripe.webhookEndpoints.create({
        url: webhookUrl,
        enabled_events: ["*"],
        description: "Cofre",
        metadata: { cofre_webhook_url: webhookUrl },
      });
      if (!endpoint.secret)
        return { ok: false, message: "Stripe created the webhook endpoint without a signing secret." };
      return {
        ok: true,
        providerAccountId: account.id ?? null,
        webhookEndpointId: endpoint.id,
        webhookSecret: endpoint.secret,
      };
    } catch (err) {
      return { ok: false, message: `creating the webhook endpoint: ${stripeFailureText(err)}` };
    }
  }

  async disconnect(
    spec: CardConnectionSpec,
    endpointId: string,
  ): Promise<{ ok: true } | { ok: false; message: string }> {
    try {
      await this.client(spec.apiBase, spec.secretKey).webhookEndpoints.del(endpointId);
      this.pool.delete(spec.id);
      return { ok: true };
    } catch (err) {
      return { ok: false, message: stripeFailureText(err) };
    }
  }

  async verify(
    spec: CardConnectionSpec,
    rawBody: string,
    signature: string,
    nowSeconds: number,
  ): Promise<VerifiedEvent> {
    try {
      const event = await constructEvent(rawBody, signature, spec.webhookSecret, nowSeconds);
      return { ok: true, id: event.id, type: event.type, created: event.created, event };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }

  async listEvents(spec: CardConnectionSpec, sinceSeconds: number, startingAfter?: string): Promise<EventPage> {
    try {
      const stripe = this.client(spec.apiBase, spec.secretKey);
      const page = await stripe.events.list({
        created: { gte: sinceSeconds },
        limit: 100,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      });
      return {
        ok: true,
        hasMore: page.has_more,
        events: page.data.map((e) => ({ id: e.id, type: e.type, created: e.created, event: e })),
      };
    } catch (err) {
      return { ok: false, message: stripeFailureText(err) };
    }
  }
}
