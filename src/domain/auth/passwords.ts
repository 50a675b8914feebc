/**
 * Password hashing with Bun.password (argon2id). Production uses Bun's default cost; under
 * NODE_ENV=test a small memory cost keeps the suite fast (the hash records its own parameters,
 * so verification works either way).
 */

type HashOptions = { algorithm: "argon2id"; memoryCost?: number; timeCost?: number };

/** Hashing parameters in effect (cheap under NODE_ENV=test). */
export function hashOptions(): HashOptions {
  return process.env.NODE_ENV === "test"
    ? { algorithm: "argon2id", memoryCost: 4096, timeCost: 1 }
    : { algorithm: "argon2id" };
}

/**
 * The form a password is hashed and checked in (issue 30 §5): Unicode NFC, so the same password
 * typed on two keyboards (a precomposed "é" or "e" + combining accent) is the same password. ASCII
 * is unchanged, so hashes made before this still verify.
 */
export function passwordForm(password: string): string {
  return password.normalize("NFC");
}

/** argon2id PHC string of `password` (its NFC form). */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(passwordForm(password), hashOptions());
}

/**
 * True when `password` (its NFC form) matches `hash`; false (never a throw) for a malformed hash.
 * A password typed in another form is also tried as typed, so a hash made from non-NFC text before
 * NFC hashing still verifies (both tries whatever the hash, so timing says nothing of the user).
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const nfc = passwordForm(password);
  if (await verifyOne(nfc, hash)) return true;
  return nfc !== password && (await verifyOne(password, hash));
}

async function verifyOne(password: string, hash: string): Promise<boolean> {
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/** Computes the dummy hash in the background (once per process), so the first unknown-email login costs no extra. */
export function warmDummyHash(): Promise<string> {
  return (dummy ??= hashPassword("cofre-dummy-password-never-matches"));
}

/**
 * Spends the same hashing time as a real check, for an email that has no user, so response
 * time does not reveal whether an email is registered. Always resolves to false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(password, await warmDummyHash());
  return false;
}

/** Password rule for new users: 8-256 characters. Returns an error message or null. */
export function passwordProblem(password: string): string | null {
  password = passwordForm(password);
  if (password.length < 8) return "Password must be at least 8 characters.";
  if (password.length > 256) return "Password must be at most 256 characters.";
  return null;
}
