/** @jsxImportSource preact */
/**
 * The one translation table of the codes the API answers (issue 29): every status (transactions,
 * refunds, payouts, webhook endpoints and deliveries, MED cases, API keys), member role, key mode,
 * payment method and event type the dashboard shows, in Brazilian Portuguese and English. Each section is typed by
 * the server's own constants (src/domain/.../model.ts, modules with no runtime imports), so a new
 * status without its label fails to compile. `<Code>` shows the label with the raw code on hover
 * (`title`), for developers; a code the table does not know is shown as it is.
 */
import type { PAYMENT_METHODS, TRANSACTION_STATUSES } from "../../../domain/charges/model";
import type { PAYOUT_STATUSES } from "../../../domain/payouts/model";
import type { REFUND_STATUSES } from "../../../domain/refunds/model";
import type { DELIVERY_STATUSES, ENDPOINT_STATUSES } from "../../../domain/webhooks/model";
import type { MED_CASE_STATUSES, MED_CASE_TYPES, MONEY_OUTCOMES } from "../../../domain/med/model";
import type { CanonicalType, LegacyType, MedType } from "../../../domain/events/emit";
import type { ROLES } from "../../../domain/accounts/roles";
import { lang } from "./i18n";

/** [pt-BR, en] */
type Words = readonly [string, string];
type Table<K extends string> = Record<K, Words>;

const TRANSACTION: Table<(typeof TRANSACTION_STATUSES)[number]> = {
  PENDING: ["Pendente", "Pending"],
  WAITING_PAYMENT: ["Aguardando pagamento", "Awaiting payment"],
  PROCESSING: ["Em processamento", "Processing"],
  PAID: ["Pago", "Paid"],
  APPROVED: ["Aprovado", "Approved"],
  REFUSED: ["Recusado", "Refused"],
  CANCELLED: ["Cancelado", "Cancelled"],
  EXPIRED: ["Expirado", "Expired"],
  REFUNDED: ["Estornado", "Refunded"],
  CHARGEBACK: ["Chargeback", "Chargeback"],
  DISPUTE: ["Em disputa", "In dispute"],
};

const REFUND: Table<(typeof REFUND_STATUSES)[number]> = {
  PENDING: ["Pendente", "Pending"],
  IN_PROGRESS: ["Em andamento", "In progress"],
  REFUNDED: ["Estornado", "Refunded"],
  FAILED: ["Falhou", "Failed"],
};

/** Lower case, as the payouts page words them in a sentence ("Saque pendente"). */
const PAYOUT: Table<(typeof PAYOUT_STATUSES)[number]> = {
  pending: ["pendente", "pending"],
  processing: ["em processamento", "processing"],
  paid: ["pago", "paid"],
  failed: ["falhou", "failed"],
  cancelled: ["cancelado", "cancelled"],
};

const DELIVERY: Table<(typeof DELIVERY_STATUSES)[number]> = {
  PENDING: ["Na fila", "Queued"],
  PROCESSING: ["Enviando", "Sending"],
  DELIVERED: ["Entregue", "Delivered"],
  FAILED: ["Falhou", "Failed"],
  CANCELLED: ["Cancelada", "Cancelled"],
};

const ENDPOINT: Table<(typeof ENDPOINT_STATUSES)[number]> = {
  ACTIVE: ["Ativo", "Active"],
  INACTIVE: ["Inativo", "Inactive"],
};

const MED: Table<(typeof MED_CASE_STATUSES)[number] | (typeof MED_CASE_TYPES)[number]> = {
  open: ["Aberto", "Open"],
  appealed: ["Contestado", "Appealed"],
  accepted: ["Aceito", "Accepted"],
  rejected: ["Rejeitado", "Rejected"],
  closed: ["Encerrado", "Closed"],
  med: ["MED", "MED"],
  chargeback: ["Chargeback", "Chargeback"],
  dispute: ["Disputa", "Dispute"],
  fraud: ["Fraude", "Fraud"],
};

/** What a closed MED case did with the money. */
const MED_OUTCOME: Table<(typeof MONEY_OUTCOMES)[number]> = {
  refunded_to_merchant: ["Devolvido ao lojista", "Returned to the merchant"],
  closed_without_refund: ["Encerrado sem devolução", "Closed without refund"],
  lost: ["Perdido (devolvido ao pagador)", "Lost (returned to the payer)"],
};

/** API key states as the keys page derives them (revoked, or expiring after a rotation, or active). */
const API_KEY: Table<"ACTIVE" | "REVOKED" | "EXPIRING" | "EXPIRED"> = {
  ACTIVE: ["Ativa", "Active"],
  REVOKED: ["Revogada", "Revoked"],
  EXPIRING: ["Expirando", "Expiring"],
  EXPIRED: ["Expirada", "Expired"],
};

const ROLE: Table<(typeof ROLES)[number]> = {
  OWNER: ["Proprietário", "Owner"],
  ADMIN: ["Administrador", "Admin"],
  DEVELOPER: ["Desenvolvedor", "Developer"],
  VIEWER: ["Leitor", "Viewer"],
};

/** API key and session modes. */
const MODE: Table<"test" | "live"> = {
  test: ["Teste", "Test"],
  live: ["Produção", "Live"],
};

const METHOD: Table<(typeof PAYMENT_METHODS)[number]> = {
  PIX: ["Pix", "Pix"],
  CREDIT_CARD: ["Cartão de crédito", "Credit card"],
  MBWAY: ["MB WAY", "MB WAY"],
  MULTIBANCO: ["Multibanco", "Multibanco"],
  BOLETO: ["Boleto", "Boleto"],
  CRYPTO: ["Cripto", "Crypto"],
};

const EVENT: Table<CanonicalType | LegacyType | MedType> = {
  "charge.created": ["Cobrança criada", "Charge created"],
  "charge.paid": ["Cobrança paga", "Charge paid"],
  "charge.failed": ["Cobrança não concluída", "Charge failed"],
  "charge.expired": ["Cobrança expirada", "Charge expired"],
  "charge.refunded": ["Cobrança estornada", "Charge refunded"],
  "payout.created": ["Saque solicitado", "Payout requested"],
  "payout.paid": ["Saque pago", "Payout paid"],
  "payout.failed": ["Saque não concluído", "Payout failed"],
  "payment.created": ["Pagamento criado (legado)", "Payment created (legacy)"],
  "payment.completed": ["Pagamento concluído (legado)", "Payment completed (legacy)"],
  "payment.failed": ["Pagamento não concluído (legado)", "Payment failed (legacy)"],
  "payment.expired": ["Pagamento expirado (legado)", "Payment expired (legacy)"],
  "payment.refunded": ["Pagamento estornado (legado)", "Payment refunded (legacy)"],
  "payment.status_changed": ["Situação do pagamento alterada (legado)", "Payment status changed (legacy)"],
  "withdrawal.created": ["Saque solicitado (legado)", "Withdrawal requested (legacy)"],
  "withdrawal.completed": ["Saque concluído (legado)", "Withdrawal completed (legacy)"],
  "withdrawal.failed": ["Saque não concluído (legado)", "Withdrawal failed (legacy)"],
  "withdrawal.status_changed": ["Situação do saque alterada (legado)", "Withdrawal status changed (legacy)"],
  "med_case.created": ["Caso MED aberto", "MED case opened"],
  "med_case.updated": ["Caso MED atualizado", "MED case updated"],
  "med.resolved": ["MED resolvido", "MED resolved"],
};

/** THE table: kind of code -> code -> words. */
export const LABELS = {
  transaction: TRANSACTION,
  refund: REFUND,
  payout: PAYOUT,
  delivery: DELIVERY,
  endpoint: ENDPOINT,
  med: MED,
  med_outcome: MED_OUTCOME,
  api_key: API_KEY,
  role: ROLE,
  mode: MODE,
  method: METHOD,
  event: EVENT,
} as const;

export type CodeKind = keyof typeof LABELS;

/** The label of `code` of `kind` in the current language; the code itself when the table does not know it. */
export function label(kind: CodeKind, code: string | null | undefined): string {
  if (code === null || code === undefined) return "—";
  const words = (LABELS[kind] as Record<string, Words | undefined>)[code];
  return words ? words[lang() === "en" ? 1 : 0] : code;
}

/** Labels of a list of payment methods, comma-separated. */
export function methodLabels(codes: readonly string[] | null | undefined): string {
  return (codes ?? []).map((c) => label("method", c)).join(", ");
}

/**
 * A code shown by its label, the raw code on hover (`title`) and in `data-code` (tests, styles).
 * Statuses keep their `status s-<CODE>` classes.
 */
export function Code({ kind, code, testid }: { kind: CodeKind; code: string | null | undefined; testid?: string }) {
  const isStatus = kind !== "method" && kind !== "event" && kind !== "role" && kind !== "mode";
  return (
    <span
      class={isStatus ? `status s-${code ?? ""}` : "code-label"}
      title={code ?? undefined}
      data-code={code ?? undefined}
      data-testid={testid}
    >
      {label(kind, code)}
    </span>
  );
}
