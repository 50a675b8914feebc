/**
 * The API answers the dashboard reads, typed by the API's own response schemas
 * (`Static<typeof XSchema>` of src/domain/<group>/views.ts), so a changed view breaks the page at compile time.
 * Type-only: nothing here reaches the bundle.
 */
import type { Static } from "@sinclair/typebox";
import type { AccountSchema, MemberListSchema, MerchantProfileSchema } from "../../../domain/accounts/views";
import type { ApiKeyListSchema, IssuedKeySchema } from "../../../domain/api-keys/views";
import type { AuditListSchema } from "../../../domain/audit/views";
import type { listRequestLogs } from "../../../domain/audit/request-log";
import type { AccountCardProviderSchema } from "../../../domain/card-provider/views";
import type { ChargeSchema } from "../../../domain/charges/views";
import type { FullBalanceSchema } from "../../../domain/ledger/views";
import type {
  MedCaseListSchema,
  MedCaseSchema,
  MedEvidenceListSchema,
  UploadRequestSchema,
} from "../../../domain/med/views";
import type { PaymentMetricsSchema, PaymentStatsSchema, ReceiptSchema } from "../../../domain/payments/schemas";
import type { PayerSchema } from "../../../domain/payments/payer";
import type { TransactionListSchema, TransactionSchema } from "../../../domain/payments/views";
import type { PayoutDestinationListSchema } from "../../../domain/payouts/destination-views";
import type { PayoutListSchema, PayoutSchema } from "../../../domain/payouts/views";
import type { AccountPixProviderSchema } from "../../../domain/pix-provider/views";
import type { RefundListSchema } from "../../../domain/refunds/views";
import type {
  DeliveryAttemptListSchema,
  DeliveryListSchema,
  EndpointListSchema,
  EndpointWithSecretSchema,
} from "../../../domain/webhooks/views";

export type Account = Static<typeof AccountSchema>;
export type MemberList = Static<typeof MemberListSchema>;
export type Member = MemberList["data"][number];
export type MerchantProfile = Static<typeof MerchantProfileSchema>;
export type ApiKeyList = Static<typeof ApiKeyListSchema>;
export type IssuedKey = Static<typeof IssuedKeySchema>;
export type AuditEntry = Static<typeof AuditListSchema>["data"][number];
export type RequestLogList = Awaited<ReturnType<typeof listRequestLogs>>;
export type RequestLogEntry = RequestLogList["data"][number];
export type AccountCardProvider = Static<typeof AccountCardProviderSchema>;
export type AccountPixProvider = Static<typeof AccountPixProviderSchema>;
export type Charge = Static<typeof ChargeSchema>;
export type Balance = Static<typeof FullBalanceSchema>;
export type MedCaseList = Static<typeof MedCaseListSchema>;
export type MedCase = Static<typeof MedCaseSchema>;
export type MedEvidence = Static<typeof MedEvidenceListSchema>["data"][number];
export type MedUploadRequest = Static<typeof UploadRequestSchema>;
export type PaymentStats = Static<typeof PaymentStatsSchema>;
export type PaymentMetrics = Static<typeof PaymentMetricsSchema>;
export type Payment = Static<typeof TransactionSchema>;
export type PaymentList = Static<typeof TransactionListSchema>;
export type Payer = Static<typeof PayerSchema>;
export type Receipt = Static<typeof ReceiptSchema>;
export type PayoutDestination = Static<typeof PayoutDestinationListSchema>["data"][number];
export type PixKeyDestination = Extract<PayoutDestination, { type: "pix_key" }>;
export type BankAccountDestination = Extract<PayoutDestination, { type: "bank_account" }>;
export type PayoutList = Static<typeof PayoutListSchema>;
export type Payout = Static<typeof PayoutSchema>;
export type Refund = Static<typeof RefundListSchema>["data"][number];
export type Delivery = Static<typeof DeliveryListSchema>["data"][number];
export type DeliveryAttempt = Static<typeof DeliveryAttemptListSchema>["data"][number];
export type Endpoint = Static<typeof EndpointListSchema>["data"][number];
export type EndpointWithSecret = Static<typeof EndpointWithSecretSchema>;
