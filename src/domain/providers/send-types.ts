/** The Pix send flow of the provider boundary (payouts and cashout refunds; types.ts re-exports these). */
import type { ProviderFailure } from "./types";

/**
 * A notification may also speak of Pix this account SENT (an Efí callback entry with
 * `gnExtras.idEnvio`): `sendIds` lists their `sendId`s, hints only, each confirmed with
 * `sendStatus` by the payout (or cashout refund) it belongs to.
 */
export interface SendHints {
  sendIds?: string[];
}

/**
 * A Pix the PSP sent for the account (Efí's `GET /v2/gn/pix/enviados`): `sendId` its `idEnvio`
 * (null when sent outside the API), `status` as SendOutcome names it, `at` the request time (ms).
 */
export interface SentPix {
  sendId: string | null;
  endToEndId: string | null;
  amount: number;
  status: "processing" | "paid" | "failed";
  at: number;
}

/** Sends listed in a window (reconciliation), or a failure. */
export type SendListOutcome = { status: "listed"; sends: SentPix[] } | ProviderFailure;

/**
 * Where a Pix send (a payout, or a cashout refund) goes: a registered payout destination
 * (extensions.md "Payouts (money out)"). `pix_key`: the key, its type, and the holder's CPF/CNPJ
 * when known (Efí's `favorecido.cpf|cnpj`); `bank_account`: the account itself (Efí's
 * `favorecido.contaBanco`; `ispb` 8 digits, `branch` 1-4 digits, `account` digits with its check
 * digit).
 */
export type SendDestination =
  | {
      type: "pix_key";
      pixKey: string;
      pixKeyType: "cpf" | "cnpj" | "email" | "phone" | "evp";
      taxId: string | null;
      name: string | null;
    }
  | {
      type: "bank_account";
      name: string;
      taxId: string;
      ispb: string;
      branch: string;
      account: string;
      accountType: "checking" | "savings";
    };

/**
 * One Pix send. `sendId` is the provider's idempotency key (Efí's `idEnvio`, `[a-zA-Z0-9]{1,35}`:
 * the payout or refund id without its prefix), persisted by the domain before the first call, so a
 * retry, a timeout or a crash never sends twice: a provider that cannot tell whether an earlier
 * call went through asks first (GET by `sendId`).
 */
export interface SendRequest {
  sendId: string;
  /** Minor units (centavos), > 0. */
  amount: number;
  destination: SendDestination;
  /** Free text for the payee (`infoPagador`, at most 140 characters), or null. */
  description: string | null;
  /**
   * true when an earlier attempt may have reached the provider (a retry, a crash recovery):
   * the provider asks for the send by `sendId` before sending, and sends only when it is absent.
   */
  resumed: boolean;
  /** When the domain first recorded the send (epoch ms): status checks back off from it. */
  requestedAt: number;
}

/**
 * Where a send stands: `paid` (the payee's bank credited it; `endToEndId` 32 characters);
 * `processing` (accepted, not final; query again at `checkAt`); `absent` (a status query found no
 * such send: it never reached the provider, so sending it is safe); `rejected` (refused for good:
 * `code` becomes the payout's `failure_code`, e.g. Efí's `gnExtras.erro.codigo` or its error name);
 * other failures (`retryable`, `auth_failed`) leave it as it is and are tried again;
 * `not_supported`: this provider cannot send Pix.
 */
export type SendOutcome =
  | { status: "paid"; endToEndId: string; paidAt?: number }
  | { status: "processing"; endToEndId?: string | null; checkAt?: number }
  | { status: "absent" }
  | ProviderFailure;
