/** Every table of Cofre: one file per group, re-exported here for drizzle and drizzle-kit. */
export * from "./accounts";
export * from "./jobs";
export * from "./idempotency";
export * from "./events";
export * from "./auth";
export * from "./ledger";
export * from "./charges";
export * from "./webhooks";
export * from "./payments";
export * from "./med";
export * from "./pix-provider";
export * from "./shared";
export * from "./payouts";
export * from "./card-provider";
export * from "./reconciliation";
