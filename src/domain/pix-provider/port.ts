/**
 * What the connection use cases need from the PSP, as a port the composition root fills with the
 * bcb_pix_v2 adapter (src/providers/bcb-pix-v2/gateway.ts): the domain imports no concrete
 * provider (test/providers/seam.test.ts).
 */

/** A connection with its secrets opened: what reaching the PSP needs (the adapter's BcbConnection). */
export interface ConnectionSpec {
  id: string;
  /** API base; paths such as `/cob/{txid}` are appended. */
  apiUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM client certificate and its PEM private key (mTLS). */
  certificate: string;
  privateKey: string;
  /**
   * PEM roots the PSP's server certificate must chain to (its own CA, psp-sim), instead of the system roots; null =
   * system roots.
   */
  caCertificates: string | null;
  /** OAuth2 scope sent on the token call (space separated); null = none. */
  scope: string | null;
  /** Where the client credentials go on the token call. */
  tokenAuth: "basic" | "form";
  /** Query parameters added to every API call (e.g. Banco do Brasil's `gw-dev-app-key`). */
  apiQuery: Record<string, string> | null;
  /**
   * The connection's type (extensions.md "Pix send through a PSP: connection type `efi`"): absent
   * or `bcb_pix_v2` = the standard below `apiUrl`; `efi` = `apiUrl` is the origin, the standard's
   * routes are below `/v2`, plus Efí's send routes.
   */
  type?: ConnectionType;
}

/** Types of Pix provider connection (the stored `type` column). */
export type ConnectionType = "bcb_pix_v2" | "efi";

/** `ok`, or the PSP's refusal / the network failure as text (status and reason; never a secret). */
export type StepResult = { ok: true } | { ok: false; message: string };

export interface PixConnectionGateway {
  /**
   * With a fresh client of `spec` (nothing cached): obtains a token, then, when granted, registers
   * `webhookUrl` for `pixKey` (`PUT {api_url}/webhook/{pix_key}`).
   */
  connect(
    spec: ConnectionSpec,
    pixKey: string,
    webhookUrl: string,
  ): Promise<{ token: StepResult; webhook: StepResult | null }>;
  /** Removes the webhook of `pixKey` (`DELETE {api_url}/webhook/{pix_key}`) and forgets the connection's client. */
  disconnect(spec: ConnectionSpec, pixKey: string): Promise<StepResult>;
}
