/** @jsxImportSource preact */
/** Settings as the account may see them (GET /v1/account): fees, settlement delay, limits; read-only (the operator sets them). */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import { t } from "./i18n";
import { duration, money } from "./format";

export function Settings() {
  const [acct, setAcct] = useState<any>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api("GET", "/v1/account").then(setAcct, (e) => setError(e.message));
  }, []);
  if (!acct) return error ? <p role="alert" class="error">{error}</p> : <p>{t("loading")}</p>;
  const s = acct.settings;
  const rows: [string, string, string][] = [
    ["legal-name", t("legal_name"), s.legal_name ?? "—"],
    ["tax-id", t("tax_id"), s.tax_id ?? "—"],
    ["pix-fee", t("pix_fee"), `${(s.pix_fee_bps / 100).toFixed(2).replace(".", ",")} % + ${money(s.pix_fee_fixed)}`],
    ["settlement-delay", t("settlement_delay"), duration(s.settlement_delay_seconds)],
    ["default-expiry", t("default_expiry"), duration(s.default_expires_in)],
    ["payer-lock", t("payer_lock"), s.payer_lock_enabled ? t("yes") : t("no")],
  ];
  return (
    <section>
      <h1>{t("settings")}</h1>
      <p>{t("settings_note")}</p>
      <dl class="facts">
        {rows.map(([id, label, value]) => (
          <Fragment key={id}>
            <dt>{label}</dt>
            <dd data-testid={id} class="name">
              {value}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
