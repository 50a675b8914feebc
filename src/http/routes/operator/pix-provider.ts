/**
 * `PUT|GET|DELETE /v1/operator/accounts/{account_id}/pix-provider` (extensions.md "Live Pix over
 * the BCB API Pix (v2)"): the account's live Pix provider connection (src/domain/pix-provider).
 * Not mounted when COFRE_OPERATOR_TOKEN is unset (404).
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../../../domain/deps";
import { connect, deleteConnection, getConnection } from "../../../domain/pix-provider/service";
import { PixProviderConnectionSchema } from "../../../domain/pix-provider/views";
import { operatorAuth } from "../../plugins/operator-auth";
import { BODY_ERRORS, op } from "../../openapi";
import { StrictObject, Str, Type } from "../../schemas";

const PEM_MAX = 65_536;

/** The PUT body: the pinned fields, then the optional PSP differences. */
const ConnectBody = StrictObject({
  type: Type.Union([Type.Literal("bcb_pix_v2"), Type.Literal("efi")], {
    description:
      "`bcb_pix_v2`: any PSP of the BCB API Pix v2; `efi`: Efí, the standard plus Pix send (payouts, cashout refunds).",
  }),
  api_url: Str({
    minLength: 1,
    maxLength: 2048,
    description:
      "`bcb_pix_v2`: the PSP's API Pix base over https (e.g. `https://pix.example.com/api/v2`); `efi`: Efí's origin (e.g. `https://pix.api.efipay.com.br`).",
  }),
  token_url: Str({ minLength: 1, maxLength: 2048, description: "The PSP's OAuth2 token endpoint over https." }),
  client_id: Str({ minLength: 1, maxLength: 512 }),
  client_secret: Str({ minLength: 1, maxLength: 4096, description: "Stored encrypted; never returned or logged." }),
  certificate: Str({
    minLength: 1,
    maxLength: PEM_MAX,
    description: "PEM client certificate presented to the PSP (mTLS).",
  }),
  private_key: Str({
    minLength: 1,
    maxLength: PEM_MAX,
    description:
      "PEM private key of the certificate (unencrypted PKCS#8, PKCS#1 or SEC1). Stored encrypted; never returned or logged.",
  }),
  ca_certificates: Type.Optional(
    Str({
      minLength: 1,
      maxLength: 4 * PEM_MAX,
      description:
        "PEM roots the PSP's server certificate chains to (its own CA); when given they replace the system roots for this connection.",
    }),
  ),
  pix_key: Str({ minLength: 1, maxLength: 77, description: "The receiving Pix key (DICT)." }),
  scope: Type.Optional(
    Str({
      minLength: 1,
      maxLength: 1024,
      description: "OAuth2 scope sent on the token call (space separated; Inter requires one).",
    }),
  ),
  token_auth: Type.Optional(
    Type.Union([Type.Literal("basic"), Type.Literal("form")], {
      description: "Where the token call carries client_id/client_secret: HTTP Basic (default) or the form body.",
    }),
  ),
  api_query: Type.Optional(
    Type.Record(Type.String({ pattern: "^[A-Za-z0-9._~-]{1,64}$" }), Str({ maxLength: 512 }), {
      maxProperties: 8,
      description: 'Query parameters added to every API call, e.g. Banco do Brasil\'s `{"gw-dev-app-key": "..."}`.',
    }),
  ),
});

const Params = t.Object({ account_id: t.String() });
const PATH = "/v1/operator/accounts/:account_id/pix-provider";

export function operatorPixProviderRoutes(deps: Deps) {
  return new Elysia()
    .use(operatorAuth(deps))
    .put(PATH, ({ params, body }) => connect(deps, params.account_id, body), {
      params: Params,
      body: ConnectBody,
      detail: op({
        tags: ["operator"],
        security: "operator",
        summary: "Connect an account's live Pix to a PSP of the BCB API Pix v2 or to Efí (replaces any connection)",
        description:
          "Checks the PEMs (400), obtains an access token with the credentials over mutual TLS (refused or unreachable -> 422 `provider_connection_failed` with the PSP's status and reason; nothing is stored), registers Cofre's webhook `{COFRE_PUBLIC_URL}/v1/provider-webhooks/pix/{id}` at `PUT {api_url}/webhook/{pix_key}` (`efi`: `PUT {api_url}/v2/webhook/{pix_key}` with `x-skip-mtls-checking: true`, since callbacks are only hints; a refusal leaves `webhook_registered: false`), and stores the connection with its client secret and private key encrypted. A second PUT replaces the connection (same id). Secrets are never returned.",
        ok: { 200: PixProviderConnectionSchema },
        errors: [...BODY_ERRORS, 401, 404, 422],
        requestExample: {
          type: "bcb_pix_v2",
          api_url: "https://pix.example.com/api/v2",
          token_url: "https://pix.example.com/oauth/token",
          client_id: "client-id",
          client_secret: "client-secret",
          certificate: "-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----\n",
          private_key: "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n",
          pix_key: "5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
        },
      }),
    })
    .get(PATH, ({ params }) => getConnection(deps, params.account_id), {
      params: Params,
      detail: op({
        tags: ["operator"],
        security: "operator",
        summary: "Read an account's Pix provider connection (no secret)",
        ok: { 200: PixProviderConnectionSchema },
        errors: [401, 404],
      }),
    })
    .delete(
      PATH,
      async ({ params, set }) => {
        await deleteConnection(deps, params.account_id);
        set.status = 204;
      },
      {
        params: Params,
        body: StrictObject({}),
        detail: op({
          tags: ["operator"],
          security: "operator",
          summary: "Disconnect an account's live Pix (204)",
          description:
            "Live charges answer 422 again; charges already created keep settling through polls. The webhook is removed at the PSP (best effort).",
          ok: { 204: { empty: "Disconnected." } },
          errors: [...BODY_ERRORS, 401, 404],
        }),
      },
    );
}
