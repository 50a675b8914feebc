/** @jsxImportSource preact */
/** Saques' shared words: payout statuses, Pix key kinds, destinations in one line, failures and the status badge. */
import { ApiFailure } from "./api";
import { t, type Key } from "./i18n";
import type { BankAccountDestination, PixKeyDestination } from "./wire";
import { label } from "./labels";
import { PIX_KEY_TYPES, type PixKeyType } from "../../../pix/key-types";

/**
 * A payout status as the merchant reads it ("pendente", "em processamento", ...; labels.tsx, the one table); an unknown
 * one as sent.
 */
export function payoutStatusText(status: string): string {
  return label("payout", status);
}

/** The pt-BR word of each Pix key type (i18n.ts keys). */
export const KEY_WORDS: Record<PixKeyType, Key> = {
  cpf: "key_cpf",
  cnpj: "key_cnpj",
  email: "key_email",
  phone: "key_phone",
  evp: "key_evp",
};
/** Codes the page words itself; any other failure reads `code: message` from the API. */
const KNOWN_FAILURES: Record<string, Key> = {
  insufficient_balance: "insufficient_balance",
  payout_limit_exceeded: "payout_limit_exceeded",
};
/** A failure as the Saques page shows it: its own words for the codes it knows, else `code: message`. */
export const failureText = (e: unknown) =>
  e instanceof ApiFailure
    ? KNOWN_FAILURES[e.code]
      ? t(KNOWN_FAILURES[e.code]!)
      : `${e.code}: ${e.message}`
    : (e as Error).message;

/** The fields of a destination (or of a payout's snapshot of it) that its one line shows. */
type DestinationLine =
  | Pick<PixKeyDestination, "type" | "pix_key_type" | "pix_key" | "name">
  | Pick<BankAccountDestination, "type" | "name" | "ispb" | "branch" | "account" | "account_type">;

/** A destination in one line: "Chave Pix CPF: 52998224725 · Maria" or "Maria · ISPB 00000000 · Agência 1 · 12345-6 (Corrente)". */
export function destinationText(d: DestinationLine | null | undefined): string {
  if (!d) return "—";
  if (d.type === "pix_key") {
    const kind = (PIX_KEY_TYPES as readonly string[]).includes(d.pix_key_type)
      ? t(KEY_WORDS[d.pix_key_type as PixKeyType])
      : d.pix_key_type;
    return `${t("pix_key")} ${kind}: ${d.pix_key}${d.name ? ` · ${d.name}` : ""}`;
  }
  const kind =
    d.account_type === "savings" ? t("savings") : d.account_type === "checking" ? t("checking") : d.account_type;
  return `${d.name ?? "—"} · ISPB ${d.ispb} · ${t("branch")} ${d.branch} · ${d.account} (${kind})`;
}

/** A payout's status badge: the pt-BR word, the code as its title. */
export function StatusBadge({ status, test }: { status: string; test?: string }) {
  return (
    <span class={`status p-${status}`} data-status={status} data-testid={test} title={status}>
      {payoutStatusText(status)}
    </span>
  );
}
