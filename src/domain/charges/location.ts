/**
 * The Pix location payload (BCB "API Pix" dynamic QR): a GET of the BR Code's location URL returns
 * the cob as a `CobPayload` signed as a compact JWS (PS256) with the service's own key, the way a
 * PSP's location does. The key pair is generated once per data directory and stored in
 * `pix_signing_keys`; its public half is served as a JWKS (`jku` header).
 */
import { CompactSign, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import { randomHex } from "../../lib/crypto";
import { formatAmount } from "../../pix/brcode";
import type { TransactionRow } from "../providers/types";
import type { Store } from "../../store/port";
import { isIn, OVER, WAITING } from "./model";

export const LOCATION_ALG = "PS256";
export const JWKS_PATH = "/v1/pix/jwks.json";
/**
 * Path prefix of the location URLs Cofre serves (the public route group answers GET on it with
 * `signedCobPayload`); the sandbox Pix provider puts them in its BR Codes.
 */
export const PIX_LOCATION_PATH = "/v1/pix/loc/";

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** The loaded key per store (one data directory). */
const keys = new WeakMap<Store, Promise<LoadedKey>>();

/** Reads the oldest stored key, or generates one (outside any unit: WebCrypto) and stores it. */
async function loadOrCreate(deps: Deps): Promise<LoadedKey> {
  let row = await deps.store.read.charges.signingKey();
  if (!row) {
    const pair = await generateKeyPair(LOCATION_ALG, { extractable: true });
    const kid = randomHex(8);
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: LOCATION_ALG, use: "sig" };
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg: LOCATION_ALG };
    const key = {
      kid,
      alg: LOCATION_ALG,
      privateJwk: JSON.stringify(privateJwk),
      publicJwk: JSON.stringify(publicJwk),
      createdAt: deps.clock.nowMs(),
    };
    await deps.store.tx((uow) => uow.charges.addSigningKey(key));
    // The oldest key wins should two starts have raced.
    row = (await deps.store.read.charges.signingKey())!;
  }
  const privateKey = (await importJWK(JSON.parse(row.privateJwk), row.alg)) as CryptoKey;
  return { kid: row.kid, privateKey, publicJwk: JSON.parse(row.publicJwk) };
}

/** The service's location signing key (generated and stored on first use). */
export function signingKey(deps: Deps): Promise<LoadedKey> {
  let p = keys.get(deps.store);
  if (!p) {
    p = loadOrCreate(deps);
    p.catch(() => keys.delete(deps.store));
    keys.set(deps.store, p);
  }
  return p;
}

/** `{keys: [publicJwk]}` for `GET /v1/pix/jwks.json`. */
export async function locationJwks(deps: Deps): Promise<{ keys: JWK[] }> {
  return { keys: [(await signingKey(deps)).publicJwk] };
}

/** BCB cob status of a transaction. */
export function cobStatus(row: TransactionRow): "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_PSP" {
  if (isIn(WAITING, row.status)) return "ATIVA";
  // Over before a payment (expired, cancelled, refused): removed; every other status received a payment.
  if (isIn(OVER, row.status)) return "REMOVIDA_PELO_PSP";
  return "CONCLUIDA";
}

/** Sandbox receiver Pix key: a stable random-looking EVP key per account. */
export function sandboxPixKey(accountId: string): string {
  const h = new Bun.CryptoHasher("sha256").update(`pix-key:${accountId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The BCB `CobPayload` of a Pix transaction. `devedor` (the customer's document) is deliberately
 * left out: anyone holding the BR Code can GET the location, and documents stay private.
 */
export function cobPayload(row: TransactionRow): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    calendario: { criacao: iso(row.createdAt), apresentacao: iso(row.updatedAt), expiracao: row.ttlSeconds ?? 0 },
    txid: row.pixTxid,
    revisao: 0,
    status: cobStatus(row),
    valor: { original: formatAmount(row.amount) },
    chave: sandboxPixKey(row.accountId),
  };
  try {
    const description = JSON.parse(row.metadata)?.description;
    if (typeof description === "string" && description) payload.solicitacaoPagador = description.slice(0, 140);
  } catch {}
  return payload;
}

/** Compact JWS (PS256, `kid`, `jku`) of the cob payload of `row`. */
export async function signedCobPayload(deps: Deps, row: TransactionRow): Promise<string> {
  const key = await signingKey(deps);
  const payload = cobPayload({ ...row, updatedAt: deps.clock.nowMs() });
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: LOCATION_ALG, kid: key.kid, jku: `${deps.config.publicUrl}${JWKS_PATH}`, typ: "JWT" })
    .sign(key.privateKey);
}
