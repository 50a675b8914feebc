/**
 * Every PostgreSQL repository on one context (src/store/pg/context.ts). A unit of work builds only
 * the repositories it touches (lazy getters: a create uses a handful of the sixteen).
 */
import type { Repos } from "../port";
import type { PgContext } from "./context";
import { accountsRepo } from "./accounts";
import { apiKeysRepo } from "./api-keys";
import { authRepo } from "./auth";
import { auditRepo } from "./audit";
import { cardProviderRepo } from "./card-provider";
import { chargesRepo } from "./charges";
import { eventsRepo } from "./events";
import { idempotencyRepo } from "./idempotency";
import { jobsRepo } from "./jobs";
import { ledgerRepo } from "./ledger";
import { medRepo } from "./med";
import { paymentsRepo } from "./payments";
import { payoutDestinationsRepo, payoutsRepo } from "./payouts";
import { pixProviderRepo } from "./pix-provider";
import { reconciliationRepo } from "./reconciliation";
import { refundsRepo } from "./refunds";
import { requestLogRepo } from "./request-log";
import { statsRepo } from "./stats";
import { webhooksRepo } from "./webhooks";

/** The repository names of `Repos`, in the port's order. */
export const REPO_NAMES = [
  "accounts",
  "apiKeys",
  "auth",
  "audit",
  "cardProvider",
  "charges",
  "events",
  "idempotency",
  "jobs",
  "ledger",
  "med",
  "payments",
  "payoutDestinations",
  "payouts",
  "pixProvider",
  "reconciliation",
  "refunds",
  "requestLog",
  "stats",
  "webhooks",
] as const satisfies readonly (keyof Repos)[];

/** The repositories of one context, each built on first use. */
class PgRepos implements Repos {
  #accounts?: Repos["accounts"];
  #apiKeys?: Repos["apiKeys"];
  #auth?: Repos["auth"];
  #audit?: Repos["audit"];
  #cardProvider?: Repos["cardProvider"];
  #charges?: Repos["charges"];
  #events?: Repos["events"];
  #idempotency?: Repos["idempotency"];
  #jobs?: Repos["jobs"];
  #ledger?: Repos["ledger"];
  #med?: Repos["med"];
  #payments?: Repos["payments"];
  #payoutDestinations?: Repos["payoutDestinations"];
  #payouts?: Repos["payouts"];
  #pixProvider?: Repos["pixProvider"];
  #reconciliation?: Repos["reconciliation"];
  #refunds?: Repos["refunds"];
  #requestLog?: Repos["requestLog"];
  #stats?: Repos["stats"];
  #webhooks?: Repos["webhooks"];
  constructor(private readonly ctx: PgContext) {}
  get accounts() {
    return (this.#accounts ??= accountsRepo(this.ctx));
  }
  get apiKeys() {
    return (this.#apiKeys ??= apiKeysRepo(this.ctx));
  }
  get auth() {
    return (this.#auth ??= authRepo(this.ctx));
  }
  get audit() {
    return (this.#audit ??= auditRepo(this.ctx));
  }
  get charges() {
    return (this.#charges ??= chargesRepo(this.ctx));
  }
  get events() {
    return (this.#events ??= eventsRepo(this.ctx));
  }
  get idempotency() {
    return (this.#idempotency ??= idempotencyRepo(this.ctx));
  }
  get jobs() {
    return (this.#jobs ??= jobsRepo(this.ctx));
  }
  get ledger() {
    return (this.#ledger ??= ledgerRepo(this.ctx));
  }
  get med() {
    return (this.#med ??= medRepo(this.ctx));
  }
  get payments() {
    return (this.#payments ??= paymentsRepo(this.ctx));
  }
  get payoutDestinations() {
    return (this.#payoutDestinations ??= payoutDestinationsRepo(this.ctx));
  }
  get payouts() {
    return (this.#payouts ??= payoutsRepo(this.ctx));
  }
  get cardProvider() {
    return (this.#cardProvider ??= cardProviderRepo(this.ctx));
  }
  get pixProvider() {
    return (this.#pixProvider ??= pixProviderRepo(this.ctx));
  }
  get reconciliation() {
    return (this.#reconciliation ??= reconciliationRepo(this.ctx));
  }
  get refunds() {
    return (this.#refunds ??= refundsRepo(this.ctx));
  }
  get requestLog() {
    return (this.#requestLog ??= requestLogRepo(this.ctx));
  }
  get stats() {
    return (this.#stats ??= statsRepo(this.ctx));
  }
  get webhooks() {
    return (this.#webhooks ??= webhooksRepo(this.ctx));
  }
}

/** The repositories on `ctx` (lazy: see the module header). */
export function buildPgRepos(ctx: PgContext): Repos {
  return new PgRepos(ctx);
}

/** Every repository on `ctx`, built now, as plain own properties (the store's read side wraps each method). */
export function eagerPgRepos(ctx: PgContext): Repos {
  const lazy = new PgRepos(ctx);
  return Object.fromEntries(REPO_NAMES.map((n) => [n, lazy[n]])) as unknown as Repos;
}
