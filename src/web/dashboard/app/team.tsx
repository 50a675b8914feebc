/** @jsxImportSource preact */
/**
 * Developers page, second half: members and roles (GET/POST/PATCH/DELETE /v1/account/members;
 * OWNER/ADMIN get a role select and a remove button with confirmation per row), the API request
 * log with a status filter and cursor pages (GET /v1/request-logs), and the audit log for OWNER and
 * ADMIN (GET /v1/account/audit-log).
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure } from "./api";
import { t } from "./i18n";
import { Code, label } from "./labels";
import { dateTime } from "./format";
import type { Session } from "./main";
import { Alert, Notice } from "./messages";
import type { AuditEntry, Member, MemberList, RequestLogList } from "./wire";

const message = (e: unknown) => (e instanceof ApiFailure ? `${e.code}: ${e.message}` : (e as Error).message);
const ROLES = ["VIEWER", "DEVELOPER", "ADMIN", "OWNER"];

export function Members({ session }: { session: Session }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState("");
  const manager = session.role === "OWNER" || session.role === "ADMIN";
  const load = () =>
    api<MemberList>("GET", "/v1/account/members").then(
      (r) => setMembers(r.data),
      (e) => setError(message(e)),
    );
  useEffect(() => {
    void load();
  }, []);
  const [notice, setNotice] = useState("");
  const act = (p: Promise<unknown>, done: string) => {
    setError("");
    setNotice("");
    return p.then(
      () => {
        setNotice(done);
        return load();
      },
      (err) => {
        setError(message(err));
        return load();
      },
    );
  };
  // An ADMIN may not touch an OWNER nor make one (the server enforces it; the page only hides it).
  const mayTouch = (m: Member) => manager && (m.role !== "OWNER" || session.role === "OWNER");
  const roleChoices = (m: Member) =>
    ROLES.filter((r) => r !== "OWNER" || session.role === "OWNER" || m.role === "OWNER");
  const changeRole = (m: Member, role: string) =>
    act(api("PATCH", `/v1/account/members/${m.id}`, { role }), t("role_changed"));
  const remove = (m: Member) => {
    if (!confirm(`${t("remove_member_confirm")} ${m.email}?`)) return;
    // Removing oneself ends one's own session: back to the login page.
    if (m.email === session.email)
      return api("DELETE", `/v1/account/members/${m.id}`, {}).then(
        () => location.reload(),
        (err) => setError(message(err)),
      );
    return act(api("DELETE", `/v1/account/members/${m.id}`, {}), "");
  };
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    setError("");
    api("POST", "/v1/account/members", {
      email: String(f.get("email") ?? "").trim(),
      password: String(f.get("password") ?? ""),
      role: String(f.get("role")),
    }).then(
      () => {
        form.reset();
        return load();
      },
      (err) => setError(message(err)),
    );
  };
  return (
    <div>
      <h2>{t("members")}</h2>
      <Alert text={error} />
      <Notice text={notice} />
      <table class="members">
        <thead>
          <tr>
            <th scope="col">{t("email")}</th>
            <th scope="col">{t("role")}</th>
            {manager && <th scope="col">{t("actions")}</th>}
          </tr>
        </thead>
        <tbody>
          {(members ?? []).map((m) => (
            <tr key={`${m.id}:${m.role}`} data-id={m.id}>
              <td class="name">{m.email}</td>
              <td class="role">
                {mayTouch(m) ? (
                  <select
                    aria-label={`${t("role")}: ${m.email}`}
                    value={m.role}
                    onChange={(e) => void changeRole(m, (e.currentTarget as HTMLSelectElement).value)}
                  >
                    {roleChoices(m).map((r) => (
                      <option key={r} value={r} title={r}>
                        {label("role", r)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <Code kind="role" code={m.role} />
                )}
              </td>
              {manager && (
                <td>
                  {mayTouch(m) && (
                    <button type="button" onClick={() => void remove(m)}>
                      {t("remove_member")}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {manager && (
        <form class="filters new-member" onSubmit={add}>
          <label>
            {t("email")}
            <input name="email" type="email" required />
          </label>
          <label>
            {t("password")}
            <input name="password" type="password" minLength={8} required autocomplete="new-password" />
          </label>
          <label>
            {t("role")}
            <select name="role">
              {ROLES.filter((r) => r !== "OWNER" || session.role === "OWNER").map((r) => (
                <option key={r} value={r} title={r}>
                  {label("role", r)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{t("add_member")}</button>
        </form>
      )}
    </div>
  );
}

export function RequestLogs() {
  const [status, setStatus] = useState("");
  const [cursors, setCursors] = useState<string[]>([""]);
  const [list, setList] = useState<RequestLogList | null>(null);
  const [error, setError] = useState("");
  const cursor = cursors[cursors.length - 1]!;
  useEffect(() => {
    const q = new URLSearchParams({ limit: "50" });
    if (status) q.set("status", status);
    if (cursor) q.set("starting_after", cursor);
    api<RequestLogList>("GET", `/v1/request-logs?${q}`).then(setList, (e) => setError(message(e)));
  }, [status, cursor]);
  return (
    <div>
      <h2>{t("request_logs")}</h2>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setCursors([""]);
          setStatus(String(new FormData(e.currentTarget as HTMLFormElement).get("status") ?? "").trim());
        }}
      >
        <label>
          {t("http_status")}
          <input name="status" inputMode="numeric" pattern="[1-5][0-9]{2}" maxLength={3} />
        </label>
        <button type="submit">{t("search")}</button>
      </form>
      <Alert text={error} />
      {list && list.data.length === 0 ? (
        <p>{t("no_logs")}</p>
      ) : (
        <table class="logs">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("request")}</th>
              <th scope="col">HTTP</th>
              <th scope="col">{t("mode")}</th>
              <th scope="col" class="num">
                ms
              </th>
            </tr>
          </thead>
          <tbody>
            {(list?.data ?? []).map((l) => (
              <tr key={l.id} data-id={l.id}>
                <td>{dateTime(l.created_at)}</td>
                <td class="name">
                  <code>
                    {l.method} {l.path}
                  </code>
                </td>
                <td>{l.status}</td>
                <td>{l.mode}</td>
                <td class="num">{l.duration_ms}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t("request_logs")}>
        <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t("previous")}
        </button>
        <button
          type="button"
          disabled={!list?.has_more}
          onClick={() => setCursors([...cursors, list?.next_cursor ?? ""])}
        >
          {t("next")}
        </button>
      </nav>
    </div>
  );
}

export function AuditLog() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<{ data: AuditEntry[] }>("GET", "/v1/account/audit-log").then(
      (r) => setEntries(r.data),
      (e) => setError(message(e)),
    );
  }, []);
  return (
    <div>
      <h2>{t("audit_log")}</h2>
      <Alert text={error} />
      {entries && entries.length === 0 && <p>{t("no_audit")}</p>}
      {entries && entries.length > 0 && (
        <table class="audit">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("action")}</th>
              <th scope="col">{t("target")}</th>
              <th scope="col">{t("actor")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-id={e.id}>
                <td>{dateTime(e.created_at)}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td class="name">
                  <code>{e.target}</code>
                  {e.status !== null && <> ({e.status})</>}
                  {e.detail?.mode === "live" && <> · live</>}
                </td>
                <td>
                  <code>{e.actor_user_id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
