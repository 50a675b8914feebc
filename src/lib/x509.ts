/**
 * X.509 through `@peculiar/x509` (never our own ASN.1): the one loader of the library, and the
 * PEM checks of a provider connection (client certificate, its private key, extra CA roots).
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import type * as X509 from "@peculiar/x509";

let lib: typeof X509 | undefined;
/**
 * `@peculiar/x509`, loaded after `reflect-metadata`: its dependency tsyringe throws at load time
 * without the Reflect metadata API, and `bun build --compile` does not keep the order of static
 * imports between a polyfill and a CommonJS package, so both are imported here, in sequence.
 */
export async function loadX509(): Promise<typeof X509> {
  if (!lib) {
    await import("reflect-metadata");
    lib = await import("@peculiar/x509");
  }
  return lib;
}

/** A PEM input that does not parse; `field` names it (e.g. `certificate`). */
export class PemError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CertificateFacts {
  /** Lowercase hex SHA-256 of the DER (what `openssl x509 -fingerprint -sha256` prints, without colons). */
  fingerprintSha256: string;
  /** notAfter, epoch ms. */
  expiresAt: number;
  /** notBefore, epoch ms. */
  notBefore: number;
  subject: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate block of a PEM text, parsed. Throws PemError(field) when there is none or one does not parse. */
export async function parseCertificates(pem: string, field: string): Promise<X509.X509Certificate[]> {
  const x509 = await loadX509();
  const blocks = pem.match(PEM_CERT);
  if (!blocks) throw new PemError(field, `${field} must hold a PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return blocks.map((b) => {
    try {
      return new x509.X509Certificate(b);
    } catch {
      throw new PemError(field, `${field} holds a PEM block that is not an X.509 certificate.`);
    }
  });
}

/** Fingerprint, validity and subject of the first certificate of `pem`. Throws PemError(field). */
export async function certificateFacts(pem: string, field = "certificate"): Promise<CertificateFacts> {
  const [cert] = await parseCertificates(pem, field);
  const der = new Uint8Array(cert!.rawData);
  return {
    fingerprintSha256: new Bun.CryptoHasher("sha256").update(der).digest("hex"),
    expiresAt: cert!.notAfter.getTime(),
    notBefore: cert!.notBefore.getTime(),
    subject: cert!.subject,
  };
}

/**
 * Checks that `keyPem` is a private key (PKCS#8, PKCS#1 or SEC1 PEM) whose public half is the
 * first certificate's of `certPem`. Throws PemError("private_key") when it is not a key or does not match.
 */
export async function checkKeyPair(certPem: string, keyPem: string): Promise<void> {
  const [cert] = await parseCertificates(certPem, "certificate");
  let spki: Buffer;
  try {
    spki = createPublicKey(createPrivateKey(keyPem)).export({ type: "spki", format: "der" });
  } catch {
    throw new PemError("private_key", "private_key must hold an unencrypted PEM private key.");
  }
  if (!Buffer.from(cert!.publicKey.rawData).equals(spki))
    throw new PemError("private_key", "private_key does not belong to the certificate.");
}
