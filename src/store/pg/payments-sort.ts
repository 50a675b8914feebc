/**
 * The `ORDER BY` of a `GET /v1/payments` page on PostgreSQL (src/store/port/payments.ts), sorting
 * exactly as src/store/sqlite/payments.ts does: text `collate "C"` (SQLite's BINARY), NULLs
 * smallest (first ascending, last descending), method fields by their stored detail with SQLite's
 * `json_extract` typing (NULL < numbers < text), and ties of the sort key in insertion order: the
 * time-ordered id (`rawId`, UUIDv7, monotonic per process) where SQLite has its rowid.
 */
import type { SQL } from "bun";
import type { PaymentSortField } from "../port/payments";

/** A top-level column sort key: SQL text of the column and whether it is text. */
type Column = { column: string; text: boolean };
/** A method detail: `method_details.<method>.<key>`; `real` sorts as SQLite's `cast(... as real)`. */
type Detail = { method: string; key: string; real?: true };

const col = (column: string, text = true): Column => ({ column, text });
const detail = (method: string, key: string, real?: true): Detail => ({ method, key, real });

/** Sort key of each sortable field (method fields sort by their stored detail). */
const SORT: Record<PaymentSortField, Column | Detail> = {
  id: col("id"),
  status: col("status"),
  amount: col("amount", false),
  currency: col("currency"),
  paymentMethods: col("payment_methods"),
  customerName: col("customer_name"),
  customerDocument: col("customer_document"),
  customerEmail: col("customer_email"),
  metadata: col("metadata"),
  createdAt: col("created_at", false),
  paidWith: col("paid_with"),
  pixQrCode: col("pix_br_code"),
  pixCopyPaste: col("pix_br_code"),
  pixExpiresAt: col("expires_at", false),
  cardRedirectUrl: col("id"),
  mbEntity: detail("MULTIBANCO", "entity"),
  mbReference: detail("MULTIBANCO", "reference"),
  mbExpiresAt: detail("MULTIBANCO", "expiresAt"),
  boletoBarcode: detail("BOLETO", "barcode"),
  boletoLine: detail("BOLETO", "line"),
  boletoPdfUrl: col("id"),
  boletoExpiresAt: detail("BOLETO", "expiresAt"),
  cryptoAddress: detail("CRYPTO", "address"),
  cryptoAmount: detail("CRYPTO", "amount", true),
  cryptoNetwork: detail("CRYPTO", "network"),
  cryptoCurrency: detail("CRYPTO", "currency"),
  platformFee: col("platform_fee", false),
  paidAt: col("paid_at", false),
};

/** The longest prefix SQLite's `cast(text as real)` reads as a number (else 0). */
const REAL_PREFIX = String.raw`^\s*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)`;

/**
 * The sort expressions (each with its direction) of `field`, then the insertion-order tie-break.
 * Only whitelisted SQL text goes through `unsafe`: column names, method and key names from
 * SORT, the direction from a closed union.
 */
export function orderBy(sql: SQL, field: PaymentSortField, order: "asc" | "desc"): SQL.Query<unknown> {
  const dir = order === "asc" ? "asc" : "desc";
  const nulls = order === "asc" ? "nulls first" : "nulls last";
  const key = SORT[field];
  let keys: string[];
  if ("column" in key) {
    keys = [`${key.column}${key.text ? ` collate "C"` : ""} ${dir} ${nulls}`];
  } else {
    const v = `(method_details::jsonb -> '${key.method}' -> '${key.key}')`;
    const t = `jsonb_typeof(${v})`;
    if (key.real) {
      // cast(json_extract(...) as real): NULL stays NULL, a number is itself, text its numeric prefix or 0.
      const text = `(${v} #>> '{}')`;
      const real = `case when ${v} is null or ${t} = 'null' then null when ${t} = 'number' then ${text}::float8
        when ${t} = 'boolean' then (case when ${text} = 'true' then 1 else 0 end)::float8
        else coalesce(substring(${text} from '${REAL_PREFIX}')::float8, 0) end`;
      keys = [`${real} ${dir} ${nulls}`];
    } else {
      // json_extract answers NULL (missing or JSON null), a number (numbers, booleans as 1/0) or
      // text (strings; objects and arrays as JSON text); SQLite orders NULL < numbers < text.
      const cls = `case when ${t} in ('number', 'boolean') then 1 when ${t} in ('string', 'object', 'array') then 2 else 0 end`;
      const num = `case when ${t} = 'number' then (${v} #>> '{}')::numeric when ${t} = 'boolean' then (case when ${v} = 'true'::jsonb then 1 else 0 end) end`;
      const str = `(case when ${t} = 'string' then ${v} #>> '{}' when ${t} in ('object', 'array') then ${v}::text end) collate "C"`;
      keys = [`${cls} ${dir}`, `${num} ${dir}`, `${str} ${dir}`];
    }
  }
  return sql.unsafe([...keys, `id collate "C" ${dir}`].join(", ")) as unknown as SQL.Query<unknown>;
}
