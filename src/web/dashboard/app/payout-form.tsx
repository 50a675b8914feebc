/** @jsxImportSource preact */
/** Saques' new payout form and its confirmation step (amount, fee, total, destination; one key per confirmation). */
import { useRef, useState } from "preact/hooks";
import { api, newIdempotencyKey } from "./api";
import { t } from "./i18n";
import { money, parseAmount } from "./format";
import type { PayoutDestination } from "./wire";
import { destinationText, failureText } from "./payout-text";

/** What the merchant confirms: the payout as it will be sent, and the key of this confirmation. */
interface Pending {
  amount: number;
  destination: PayoutDestination;
  description: string;
  key: string;
}

/** The new payout form; "Continuar" opens the confirmation, "Confirmar" sends it. */
export function NewPayout({
  destinations,
  fee,
  say,
  created,
}: {
  destinations: PayoutDestination[];
  fee: number | null;
  say: (err: string, done: string) => void;
  created: () => void;
}) {
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  // Set synchronously: a second click in the same frame (before `busy` renders) sends nothing.
  const sending = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const ask = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const amount = parseAmount(String(f.get("amount") ?? ""));
    const destination = destinations.find((d) => d.id === f.get("destination_id"));
    if (!amount) return say(t("bad_amount"), "");
    if (!destination) return say(t("need_destination"), "");
    say("", "");
    // A new confirmation gets a new key; "Confirmar" again on this one retries with the same key.
    setConfirming({
      amount,
      destination,
      description: String(f.get("description") ?? "").trim(),
      key: newIdempotencyKey("dash-payout"),
    });
  };
  const send = async () => {
    if (!confirming || sending.current) return;
    sending.current = true;
    setBusy(true);
    say("", "");
    try {
      const body: Record<string, unknown> = { amount: confirming.amount, destination_id: confirming.destination.id };
      if (confirming.description) body.description = confirming.description;
      await api("POST", "/v1/payouts", body, { "idempotency-key": confirming.key });
      setConfirming(null);
      formRef.current?.reset();
      say("", t("payout_created"));
      created();
    } catch (e) {
      // Kept open with the same key: confirming again retries this very payout.
      say(failureText(e), "");
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <div>
      <h2>{t("new_payout")}</h2>
      <form class="filters new-payout" ref={formRef} onSubmit={ask}>
        <label>
          {t("payout_amount")}
          <input name="amount" inputMode="decimal" required placeholder="1.234,56" autocomplete="off" />
        </label>
        <label>
          {t("destination")}
          <select name="destination_id" required>
            {destinations.map((d) => (
              <option key={d.id} value={d.id}>
                {destinationText(d)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("description")} ({t("optional")})
          <input name="description" maxLength={140} autocomplete="off" />
        </label>
        <button type="submit" disabled={destinations.length === 0}>
          {t("continue")}
        </button>
      </form>
      {destinations.length === 0 && <p>{t("need_destination")}</p>}
      {confirming && (
        <div class="confirm payout-confirm" role="dialog" aria-modal="false" aria-labelledby="payout-check">
          <h3 id="payout-check">{t("payout_check")}</h3>
          <dl class="facts">
            <dt>{t("amount")}</dt>
            <dd data-testid="confirm-amount">{money(confirming.amount)}</dd>
            <dt>{t("fee")}</dt>
            <dd data-testid="confirm-fee">{fee === null ? t("fee_unknown") : money(fee)}</dd>
            {fee !== null && (
              <>
                <dt>{t("total_debit")}</dt>
                <dd data-testid="confirm-total">{money(confirming.amount + fee)}</dd>
              </>
            )}
            <dt>{t("destination")}</dt>
            <dd class="name" data-testid="confirm-destination">
              {destinationText(confirming.destination)}
            </dd>
            {confirming.description && (
              <>
                <dt>{t("description")}</dt>
                <dd class="name">{confirming.description}</dd>
              </>
            )}
          </dl>
          <button type="button" disabled={busy} onClick={send}>
            {t("payout_confirm")}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(null)}>
            {t("cancel_action")}
          </button>
        </div>
      )}
    </div>
  );
}
