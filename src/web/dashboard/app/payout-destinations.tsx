/** @jsxImportSource preact */
/** Saques' payout destinations: the list, removal and the form adding a Pix key or a bank account (OWNER and ADMIN). */
import { useState } from "preact/hooks";
import { api } from "./api";
import { t } from "./i18n";
import { dateTime } from "./format";
import type { PayoutDestination } from "./wire";
import { PIX_KEY_TYPES, type PixKeyType } from "../../../pix/key-types";
import { destinationText, failureText, KEY_WORDS } from "./payout-text";

const KEY_HINTS: Record<PixKeyType, string> = {
  cpf: "000.000.000-00",
  cnpj: "00.000.000/0000-00",
  email: "financeiro@exemplo.com.br",
  phone: "+5511987654321",
  evp: "123e4567-e89b-12d3-a456-426614174000",
};

/** A Pix key as the API takes it: CPF/CNPJ digits only, a phone without spaces or punctuation. */
function normalizeKey(type: string, key: string): string {
  const k = key.trim();
  if (type === "cpf" || type === "cnpj") return k.replace(/[.\-/\s]/g, "");
  if (type === "phone") return k.replace(/[\s()\-.]/g, "");
  return k;
}
const digits = (s: string) => s.replace(/[.\-/\s]/g, "");

/** The destinations table and, for managers, the remove buttons and the add form. */
export function Destinations({
  list,
  manager,
  reload,
  say,
}: {
  list: PayoutDestination[] | null;
  manager: boolean;
  reload: () => Promise<unknown>;
  say: (err: string, done: string) => void;
}) {
  const [type, setType] = useState<"pix_key" | "bank_account">("pix_key");
  const [keyType, setKeyType] = useState<PixKeyType>("cpf");
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const body: Record<string, string> =
      type === "pix_key"
        ? { type, pix_key_type: keyType, pix_key: normalizeKey(keyType, text("pix_key")) }
        : {
            type,
            name: text("name"),
            tax_id: digits(text("tax_id")),
            ispb: text("ispb"),
            branch: text("branch"),
            account: digits(text("account")),
            account_type: text("account_type"),
          };
    if (type === "pix_key") {
      if (text("name")) body.name = text("name");
      if (text("tax_id")) body.tax_id = digits(text("tax_id"));
    }
    say("", "");
    api("POST", "/v1/payout_destinations", body).then(
      () => {
        form.reset();
        setType("pix_key");
        setKeyType("cpf");
        say("", t("destination_added"));
        return reload();
      },
      (err) => say(failureText(err), ""),
    );
  };
  const remove = (d: PayoutDestination) => {
    if (!confirm(`${t("remove_destination_confirm")} ${destinationText(d)}?`)) return;
    say("", "");
    api("DELETE", `/v1/payout_destinations/${encodeURIComponent(d.id)}`).then(
      () => {
        say("", t("destination_removed"));
        return reload();
      },
      (err) => say(failureText(err), ""),
    );
  };
  return (
    <div>
      <h2>{t("destinations")}</h2>
      {list && list.length === 0 ? (
        <p>{t("no_destinations")}</p>
      ) : (
        <table class="destinations">
          <thead>
            <tr>
              <th scope="col">{t("destination")}</th>
              <th scope="col">{t("holder_tax_id")}</th>
              <th scope="col">{t("created")}</th>
              {manager && <th scope="col">{t("actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {(list ?? []).map((d) => (
              <tr key={d.id} data-id={d.id}>
                <td class="name">{destinationText(d)}</td>
                <td>{d.tax_id ?? "—"}</td>
                <td>{dateTime(d.created_at)}</td>
                {manager && (
                  <td>
                    <button
                      type="button"
                      aria-label={`${t("delete")}: ${destinationText(d)}`}
                      onClick={() => remove(d)}
                    >
                      {t("delete")}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manager && (
        <form class="new-destination" onSubmit={add}>
          <fieldset class="choice">
            <legend>{t("destination_type")}</legend>
            {(["pix_key", "bank_account"] as const).map((k) => (
              <label key={k}>
                <input type="radio" name="type" value={k} checked={type === k} onChange={() => setType(k)} />
                {t(k)}
              </label>
            ))}
          </fieldset>
          {type === "pix_key" ? (
            <div class="filters">
              <label>
                {t("pix_key_type")}
                <select
                  name="pix_key_type"
                  value={keyType}
                  onChange={(e) => setKeyType((e.currentTarget as HTMLSelectElement).value as PixKeyType)}
                >
                  {PIX_KEY_TYPES.map((k) => (
                    <option key={k} value={k}>
                      {t(KEY_WORDS[k])}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {t("pix_key")}
                <input
                  name="pix_key"
                  required
                  maxLength={77}
                  placeholder={KEY_HINTS[keyType]}
                  inputMode={
                    keyType === "cpf" || keyType === "cnpj"
                      ? "numeric"
                      : keyType === "phone"
                        ? "tel"
                        : keyType === "email"
                          ? "email"
                          : "text"
                  }
                  autocomplete="off"
                />
              </label>
              <label>
                {t("holder_name")} ({t("optional")})
                <input name="name" maxLength={200} autocomplete="off" />
              </label>
              <label>
                {t("holder_tax_id")} ({t("optional")})
                <input name="tax_id" inputMode="numeric" maxLength={18} autocomplete="off" />
              </label>
            </div>
          ) : (
            <div class="filters">
              <label>
                {t("holder_name")}
                <input name="name" required maxLength={200} autocomplete="off" />
              </label>
              <label>
                {t("holder_tax_id")}
                <input name="tax_id" required inputMode="numeric" maxLength={18} autocomplete="off" />
              </label>
              <label>
                {t("ispb")}
                <input name="ispb" required inputMode="numeric" pattern="[0-9]{8}" maxLength={8} autocomplete="off" />
              </label>
              <label>
                {t("branch")}
                <input
                  name="branch"
                  required
                  inputMode="numeric"
                  pattern="[0-9]{1,4}"
                  maxLength={4}
                  autocomplete="off"
                />
              </label>
              <label>
                {t("account_number")}
                <input
                  name="account"
                  required
                  inputMode="numeric"
                  pattern="[0-9.\- ]{1,24}"
                  maxLength={24}
                  autocomplete="off"
                />
              </label>
              <label>
                {t("account_type")}
                <select name="account_type">
                  <option value="checking">{t("checking")}</option>
                  <option value="savings">{t("savings")}</option>
                </select>
              </label>
            </div>
          )}
          <button type="submit">{t("add_destination")}</button>
        </form>
      )}
    </div>
  );
}
