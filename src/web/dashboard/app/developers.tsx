/** @jsxImportSource preact */
/**
 * Developers: the account's API keys (GET /v1/api-keys; no cleartext), issue (test or live),
 * rotate and revoke for OWNER and ADMIN (`access.canManage`). A new key's cleartext is shown
 * once, right after issue or rotate, and never again. Below: members, request logs (./team.tsx), events
 * (./events.tsx), audit log.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure, currentMode } from "./api";
import { t } from "./i18n";
import { Code } from "./labels";
import { dateTime } from "./format";
import type { Session } from "./main";
import { AuditLog, Members, RequestLogs } from "./team";
import { Alert } from "./messages";
import { Events } from "./events";
import type { ApiKeyList, IssuedKey } from "./wire";

const message = (e: unknown) => (e instanceof ApiFailure ? `${e.code}: ${e.message}` : (e as Error).message);

export function Developers({ session }: { session: Session }) {
  const [keys, setKeys] = useState<ApiKeyList | null>(null);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [error, setError] = useState("");
  const [keyMode, setKeyMode] = useState(currentMode());
  const load = () => api<ApiKeyList>("GET", "/v1/api-keys").then(setKeys, (e) => setError(message(e)));
  useEffect(() => {
    void load();
  }, []);
  const act = async (f: () => Promise<void>) => {
    setError("");
    try {
      await f();
      await load();
    } catch (e) {
      setError(message(e));
    }
  };
  const issue = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const label = String(f.get("label") ?? "").trim();
    void act(async () => {
      setIssued(await api("POST", "/v1/api-keys", { ...(label ? { label } : {}), test: keyMode !== "live" }));
      form.reset();
    });
  };
  if (!keys)
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p>{t("loading")}</p>
    );
  return (
    <section>
      <h1>{t("developers")}</h1>
      <Alert text={error} />
      {issued && (
        <div class="secret" role="status" data-testid="issued-key">
          <p>{t("key_once")}</p>
          <code>{issued.apiKey}</code>
          <button type="button" onClick={() => setIssued(null)}>
            {t("done")}
          </button>
        </div>
      )}
      <h2>{t("api_keys")}</h2>
      <table class="keys">
        <thead>
          <tr>
            <th scope="col">{t("label")}</th>
            <th scope="col">{t("prefix")}</th>
            <th scope="col">{t("mode")}</th>
            <th scope="col">{t("created")}</th>
            {keys.access.canManage && <th scope="col">{t("actions")}</th>}
          </tr>
        </thead>
        <tbody>
          {keys.data.map((k) => (
            <tr key={k.id} data-id={k.id}>
              <td class="name">{k.label}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>
                <Code kind="mode" code={k.mode} />
              </td>
              <td>{dateTime(k.createdAt)}</td>
              {keys.access.canManage && (
                <td class="row-actions">
                  <button
                    type="button"
                    onClick={() => act(async () => setIssued(await api("POST", `/v1/api-keys/${k.id}/rotate`, {})))}
                  >
                    {t("rotate")}
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      if (confirm(`${t("revoke")} ${k.prefix}…?`))
                        void act(() => api("DELETE", `/v1/api-keys/${k.id}`));
                    }}
                  >
                    {t("revoke")}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {keys.access.canManage && (
        <form class="filters new-key" onSubmit={issue}>
          <label>
            {t("label")}
            <input name="label" maxLength={64} />
          </label>
          <label>
            {t("mode")}
            <select
              name="keymode"
              value={keyMode}
              onChange={(e) => setKeyMode((e.currentTarget as HTMLSelectElement).value as "test" | "live")}
            >
              <option value="test">{t("mode_test")}</option>
              <option value="live">{t("mode_live")}</option>
            </select>
          </label>
          <button type="submit">{t("issue_key")}</button>
        </form>
      )}
      <Members session={session} />
      <RequestLogs />
      <Events />
      {(session.role === "OWNER" || session.role === "ADMIN") && <AuditLog />}
    </section>
  );
}
