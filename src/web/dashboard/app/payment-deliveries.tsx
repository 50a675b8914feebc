/** @jsxImportSource preact */
/** The payment detail's "Eventos e entregas": its webhook deliveries, the last response and each attempt on demand. */
import { useState } from "preact/hooks";
import { api, ApiFailure } from "./api";
import { t } from "./i18n";
import { dateTime } from "./format";
import { Alert } from "./messages";
import { Code } from "./labels";
import type { Delivery, DeliveryAttempt } from "./wire";

/** The deliveries of a payment's events as a table (or a line saying there are none), under their heading. */
export function Deliveries({ deliveries }: { deliveries: Delivery[] }) {
  return (
    <>
      <h2>{t("events")}</h2>
      {deliveries.length === 0 ? (
        <p>{t("no_deliveries")}</p>
      ) : (
        <table class="deliveries">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("event")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{t("attempts")}</th>
              <th scope="col">HTTP</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-id={d.id}>
                <td>{dateTime(d.createdAt)}</td>
                <td>
                  <Code kind="event" code={d.eventType} />
                </td>
                <td>
                  <Code kind="delivery" code={d.status} />
                </td>
                <td>
                  {d.attempts}/{d.maxAttempts}
                  {d.attempts > 0 && <Attempts deliveryId={d.id} />}
                </td>
                <td>
                  {d.lastStatusCode ?? d.lastError ?? "—"}
                  {d.lastResponseBody && (
                    <details class="response">
                      <summary>{t("last_response")}</summary>
                      <pre>{d.lastResponseBody}</pre>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** A delivery's attempts, fetched the first time the merchant opens them; every field rendered as text. */
function Attempts({ deliveryId }: { deliveryId: string }) {
  const [list, setList] = useState<DeliveryAttempt[] | null>(null);
  const [error, setError] = useState("");
  const onToggle = (e: Event) => {
    if (!(e.currentTarget as HTMLDetailsElement).open || list) return;
    api<{ data: DeliveryAttempt[] }>("GET", `/v1/webhooks/deliveries/${deliveryId}/attempts`).then(
      (r) => setList(r.data),
      (err) => setError(err instanceof ApiFailure ? `${err.code}: ${err.message}` : (err as Error).message),
    );
  };
  return (
    <details class="attempts" onToggle={onToggle}>
      <summary>{t("show_attempts")}</summary>
      <Alert text={error} />
      {list && (
        <ol>
          {list.map((x) => (
            <li key={x.attempt} data-attempt={x.attempt}>
              <time dateTime={x.attempted_at}>{dateTime(x.attempted_at)}</time> · HTTP {x.status_code ?? "—"}
              {x.duration_ms !== null && <> · {x.duration_ms} ms</>}
              {x.error && <> · {x.error}</>}
              <pre>{x.response_body ?? t("no_response")}</pre>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
