/**
 * psp-sim certificates with `@peculiar/x509` over WebCrypto (ECDSA P-256, SHA-256): the
 * simulator's own CA, its TLS server certificate (SAN localhost, 127.0.0.1, ::1 and any extra
 * names), the merchant's client certificate (what Cofre's connection presents) and the
 * certificate the simulator presents on webhook callbacks. PEM text, PKCS#8 keys.
 */
import { loadX509 } from "../lib/x509";

const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY_MS = 86_400_000;

export interface Issued {
  /** PEM certificate. */
  cert: string;
  /** PEM PKCS#8 private key. */
  key: string;
}
export interface SimPki {
  ca: Issued;
  server: Issued;
  client: Issued;
  callback: Issued;
}

async function pkcs8Pem(key: CryptoKey): Promise<string> {
  const x509 = await loadX509();
  return x509.PemConverter.encode(await crypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");
}

async function importKey(pem: string): Promise<CryptoKey> {
  const x509 = await loadX509();
  return crypto.subtle.importKey("pkcs8", x509.PemConverter.decodeFirst(pem), ALG, false, ["sign"]);
}

/** A self-signed CA valid for `days` (default 10 years) from `now`. */
export async function createCa(commonName: string, now = new Date(), days = 3650): Promise<Issued> {
  const x509 = await loadX509();
  const keys = await crypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${commonName}, O=Cofre psp-sim`,
    keys,
    signingAlgorithm: ALG,
    notBefore: new Date(now.getTime() - 3_600_000),
    notAfter: new Date(now.getTime() + days * DAY_MS),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString("pem"), key: await pkcs8Pem(keys.privateKey) };
}

/**
 * A leaf certificate signed by `ca`: `usage` "server" (serverAuth, SAN = `names`, IP literals as
 * IP SANs) or "client" (clientAuth). Valid for `days` (default 825).
 */
export async function issue(
  ca: Issued,
  commonName: string,
  usage: "server" | "client",
  names: string[] = [],
  now = new Date(),
  days = 825,
): Promise<Issued> {
  const x509 = await loadX509();
  const caCert = new x509.X509Certificate(ca.cert);
  const keys = await crypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
  const san = names.map((n) =>
    /^[\d.]+$|:/.test(n) ? { type: "ip" as const, value: n } : { type: "dns" as const, value: n },
  );
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${commonName}, O=Cofre psp-sim`,
    issuer: caCert.subject,
    publicKey: keys.publicKey,
    signingKey: await importKey(ca.key),
    signingAlgorithm: ALG,
    notBefore: new Date(now.getTime() - 3_600_000),
    notAfter: new Date(now.getTime() + days * DAY_MS),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([
        usage === "server" ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
      ]),
      ...(san.length ? [new x509.SubjectAlternativeNameExtension(san)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString("pem"), key: await pkcs8Pem(keys.privateKey) };
}

/** The simulator's whole PKI: CA, server (localhost, 127.0.0.1, ::1 + `extraNames`), client, callback. */
export async function createSimPki(extraNames: string[] = [], now = new Date()): Promise<SimPki> {
  const ca = await createCa("Cofre psp-sim CA", now);
  const names = [...new Set(["localhost", "127.0.0.1", "::1", ...extraNames])];
  return {
    ca,
    server: await issue(
      ca,
      names.find((n) => n !== "localhost" && !/^[\d.:]+$/.test(n)) ?? "localhost",
      "server",
      names,
      now,
    ),
    client: await issue(ca, "cofre merchant client", "client", [], now),
    callback: await issue(ca, "psp-sim callbacks", "client", [], now),
  };
}
