/**
 * The bcb_pix_v2 side of connecting an account (the domain's PixConnectionGateway port,
 * src/domain/pix-provider/port.ts): a token check and the webhook registration with a fresh
 * client (an `efi` connection registers with `x-skip-mtls-checking: true`), the webhook removal on disconnect, and the
 * one pool per stored connection version of its provider and its client (token cache and concurrency cap shared by
 * every flow of a connection).
 */
import type { PaymentProvider, ProviderContext } from "../../domain/providers/types";
import { BcbPixClient, type BcbConnection, type ClientOptions } from "./client";

type Step = { ok: true } | { ok: false; message: string };

/**
 * Header of Efí's `PUT /v2/webhook/{chave}` that lets callbacks reach a server not checking Efí's client certificate.
 */
export const EFI_SKIP_MTLS_HEADER = "x-skip-mtls-checking";

/** What is pooled per stored connection version: its provider and, once opened, its client. */
interface PoolEntry {
  version: string;
  provider?: PaymentProvider;
  client?: Promise<BcbPixClient>;
}

export class BcbConnectionGateway {
  /** The one per-connection cache (by id; a new version replaces the entry). */
  private readonly pool = new Map<string, PoolEntry>();
  /** Timeouts and cap of new clients (tests shorten them); fetch and clock come from the context. */
  options: Partial<Pick<ClientOptions, "connectTimeoutMs" | "totalTimeoutMs" | "maxConcurrent">> = {};

  constructor(private readonly ctx: ProviderContext) {}

  /** A new client of `conn` (the context's fetch, read at each call, so tests can wrap it). */
  client(conn: BcbConnection): BcbPixClient {
    return new BcbPixClient(conn, {
      fetch: (input, init) => this.ctx.fetch(input, init),
      clock: this.ctx.clock,
      ...this.options,
    });
  }

  private entry(id: string, version: string): PoolEntry {
    let e = this.pool.get(id);
    if (!e || e.version !== version) this.pool.set(id, (e = { version }));
    return e;
  }

  /** The provider of connection `id` at `version` (e.g. its updatedAt), made by `make` the first time. */
  provider(id: string, version: string, make: () => PaymentProvider): PaymentProvider {
    const e = this.entry(id, version);
    return (e.provider ??= make());
  }

  /**
   * The pooled client of connection `id` at `version`; `load` opens its secrets the first time.
   * A failed load is not kept.
   */
  pooled(id: string, version: string, load: () => Promise<BcbConnection>): Promise<BcbPixClient> {
    const e = this.entry(id, version);
    if (e.client) return e.client;
    const client = load().then((conn) => this.client(conn));
    e.client = client;
    client.catch(() => {
      if (e.client === client) e.client = undefined;
    });
    return client;
  }

  /** Forgets the pooled provider and client of `id` (replaced or deleted connection). */
  forget(id: string): void {
    this.pool.delete(id);
  }

  async connect(
    conn: BcbConnection,
    pixKey: string,
    webhookUrl: string,
  ): Promise<{ token: Step; webhook: Step | null }> {
    const client = this.client(conn);
    const token = await client.token();
    if (token.kind !== "ok") return { token: { ok: false, message: token.message }, webhook: null };
    // Efí calls back only a server that checks its client certificate unless told to skip that
    // check: callbacks are hints Cofre confirms with its own credentials (extensions.md "Pix send
    // through a PSP: connection type `efi`"), so an efi connection registers with the header.
    const headers = conn.type === "efi" ? { headers: { [EFI_SKIP_MTLS_HEADER]: "true" } } : {};
    const hook = await client.call("PUT", `/webhook/${encodeURIComponent(pixKey)}`, {
      body: { webhookUrl },
      ...headers,
    });
    this.forget(conn.id);
    return { token: { ok: true }, webhook: hook.kind === "ok" ? { ok: true } : { ok: false, message: hook.message } };
  }

  async disconnect(conn: BcbConnection, pixKey: string): Promise<Step> {
    this.forget(conn.id);
    const r = await this.client(conn).call("DELETE", `/webhook/${encodeURIComponent(pixKey)}`);
    return r.kind === "ok" ? { ok: true } : { ok: false, message: r.message };
  }
}
