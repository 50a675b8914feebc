/**
 * Who a use case acts for, in domain terms (no HTTP objects): the account and mode every read and
 * write is scoped by, plus the facts of the authenticated caller. The HTTP auth plugins build a
 * `Caller` (src/http/plugins/api-key-auth.ts) and hand it to services.
 */
import type { Role } from "./accounts/roles";

/** The account and mode a read or write is confined to (`livemode` false = sandbox). */
export interface Scope {
  accountId: string;
  livemode: boolean;
}

/** The authenticated caller: an API key, or a dashboard member acting through their session. */
export interface Caller extends Scope {
  mode: "test" | "live";
  /** The key's id (`key_...`). */
  keyId: string;
  /** The key's public fingerprint (audit and request log). */
  fingerprint: string;
  /** Set when a dashboard session (not a key) made the request. */
  user?: { userId: string; role: Role };
}
