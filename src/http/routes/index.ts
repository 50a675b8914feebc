/** Every route group of the API, in one list (src/app.ts mounts them). */
import type { SchedulerDeps } from "../../jobs/deps";
import { authRoutes } from "./auth";
import { operatorRoutes } from "./operator";
import { walletRoutes } from "./wallets";
import { chargeRoutes } from "./charges";
import { publicRoutes } from "./public";
import { webhookRoutes } from "./webhooks";
import { paymentRoutes } from "./payments";
import { payoutRoutes } from "./payouts";
import { medRoutes } from "./med";
import { testHelperRoutes } from "./test-helpers";
import { pingRoutes } from "./ping";
import { providerWebhookRoutes } from "./provider-webhooks";
import { stripeWebhookRoutes } from "./provider-webhooks/stripe";
import { dashboardRoutes } from "./dashboard";
import { reconciliationRoutes } from "./reconciliation";
import { eventRoutes } from "./events";
import { metricsRoutes } from "./metrics";

/** The route groups, built on `deps` (with the scheduler itself: the test clock's advance runs the queue). */
export function routeGroups(deps: SchedulerDeps) {
  return [
    authRoutes(deps),
    operatorRoutes(deps),
    walletRoutes(deps),
    chargeRoutes(deps),
    publicRoutes(deps),
    webhookRoutes(deps),
    eventRoutes(deps),
    metricsRoutes(deps),
    paymentRoutes(deps),
    payoutRoutes(deps),
    reconciliationRoutes(deps),
    medRoutes(deps),
    testHelperRoutes(deps),
    pingRoutes(deps),
    providerWebhookRoutes(deps),
    stripeWebhookRoutes(deps),
    dashboardRoutes(deps),
  ];
}
