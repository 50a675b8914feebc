/** @jsxImportSource preact */
/**
 * Eventos (issue 28 §4), on the Developers page: the canonical events of the last 30 days in the
 * current mode (GET /v1/events, newest first, "Carregar mais" follows `next_cursor`), filtered by
 * name or family; a row opens the event's payload exactly as delivered and its deliveries to
 * endpoints (GET /v1/webhooks/deliveries of its charge or payout), where a FAILED or CANCELLED one
 * can be re-sent (POST /v1/webhooks/deliveries/{id}/retry, the one resend the API offers).
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiFailure } from "./api";
import { t } from "./i18n";
import { dateTime } from "./format";
import { Alert, Notice } from "./messages";
import { Code } from "./labels";
import type { Delivery } from "./wire";

const TYPES = [
  "charge.*",
  "charge.created",
  "charge.paid",
  "charge.failed",
  "charge.expired",
  "charge.refunded",
  "payout.*",
  "payout.created",
  "payout.paid",
  "payout.failed",
];
const RESENDABLE = ["FAILED", "CANCELLED"];

const message = (e: unknown) => (e instanceof ApiFailure ? `${e.code}: ${e.message}` : (e as Error).message);

interface Evt {
  id: string;
  type: string;
  created_at: string;
  data: { object: { id?: string } };
}

export function Events() {
  const [type, setType] = useState("");
  const [items, setItems] = useState<Evt[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState("");
  const page = async (after: string | null, filter: string) => {
    const q = new URLSearchParams({ limit: "25" });
    if (filter) q.set("type", filter);
    if (after) q.set("starting_after", after);
    return api<{ data: Evt[]; next_cursor: string | null }>("GET", `/v1/events?${q}`);
  };
  const load = (filter: string) => {
    setError("");
    setOpen(null);
    page(null, filter).then(
      (r) => {
        setItems(r.data);
        setCursor(r.next_cursor);
      },
      (e) => setError(message(e)),
    );
  };
  useEffect(() => load(type), [type]);
  const more = () =>
    page(cursor, type).then(
      (r) => {
        setItems([...(items ?? []), ...r.data]);
        setCursor(r.next_cursor);
      },
      (e) => setError(message(e)),
    );
  return (
    <section class="events" aria-labelledby="events-title">
      <h2 id="events-title">{t("events_list")}</h2>
      <p class="note">{t("events_note")}</p>
      <Alert text={error} />
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t("event_type")}
          <select
            name="event-type"
            value={type}
            onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">{t("all")}</option>
            {TYPES.map((x) => (
              <option value={x}>{x}</option>
            ))}
          </select>
        </label>
      </form>
      {items && items.length === 0 && <p class="empty">{t("no_events")}</p>}
      {items && items.length > 0 && (
        <table class="events">
          <thead>
            <tr>
              <th scope="col">{t("event_type")}</th>
              <th scope="col">{t("id")}</th>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => [
              <tr key={e.id} data-id={e.id}>
                <td>
                  <Code kind="event" code={e.type} />
                </td>
                <td>
                  <code>{e.data.object.id ?? e.id}</code>
                </td>
                <td>{dateTime(e.created_at)}</td>
                <td class="row-actions">
                  <button
                    type="button"
                    aria-expanded={open === e.id}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  >
                    {open === e.id ? t("hide_payload") : t("view_payload")}
                  </button>
                </td>
              </tr>,
              open === e.id && (
                <tr key={`${e.id}-detail`} class="event-detail">
                  <td colSpan={4}>
                    <EventDetail event={e} />
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" class="more" onClick={() => void more()}>
          {t("more_events")}
        </button>
      )}
    </section>
  );
}

/** The `id` of a delivered envelope (a delivery's payload is whatever was sent). */
const payloadId = (p: unknown) => (typeof p === "object" && p !== null && "id" in p ? p.id : undefined);

/** The payload as delivered, and the event's deliveries (resend for FAILED / CANCELLED). */
function EventDetail({ event }: { event: Evt }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const objectId = event.data.object.id;
  const load = () => {
    if (!objectId) return setDeliveries([]);
    api<{ data: Delivery[] }>(
      "GET",
      `/v1/webhooks/deliveries?${new URLSearchParams({ transactionId: objectId, limit: "100" })}`,
    ).then(
      (r) => setDeliveries(r.data.filter((d) => payloadId(d.payload) === event.id)),
      (e) => setError(message(e)),
    );
  };
  useEffect(load, [event.id]);
  const resend = async (id: string) => {
    setError("");
    setNotice("");
    try {
      await api("POST", `/v1/webhooks/deliveries/${id}/retry`, {});
      setNotice(t("resent"));
      load();
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <div>
      <pre class="payload" data-testid="event-payload">
        {JSON.stringify(event, null, 2)}
      </pre>
      <h3>{t("event_deliveries")}</h3>
      <Alert text={error} />
      <Notice text={notice} />
      {deliveries && deliveries.length === 0 && <p class="empty">{t("no_event_deliveries")}</p>}
      {deliveries && deliveries.length > 0 && (
        <ul class="event-deliveries">
          {deliveries.map((d) => (
            <li key={d.id} data-id={d.id}>
              <code>{d.endpointId ?? "webhookUrl"}</code> <Code kind="delivery" code={d.status} /> ({d.attempts}){" "}
              {RESENDABLE.includes(d.status) && (
                <button type="button" onClick={() => void resend(d.id)}>
                  {t("resend")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
