/**
 * stripe-sim events API (ROUTES.md): `GET /v1/events` (`type` with `*` wildcards, `types[]`,
 * `created[gt|gte|lt|lte]` or `created=N`, `limit`, `starting_after`, `ending_before`; newest
 * first) and `GET /v1/events/:id` (the event exactly as delivered, dropped ones included).
 */
import type Stripe from "stripe";
import type { ApiCtx, Reply } from "./core";
import { invalid, noSuch } from "./errors";
import { listPage } from "./lists";

function typeMatcher(pattern: string): (t: string) => boolean {
  if (!pattern.includes("*")) return (t) => t === pattern;
  const re = new RegExp(
    `^${pattern
      .split("*")
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
  return (t) => re.test(t);
}

/** `GET /v1/events`. */
export function listEvents(ctx: ApiCtx): Reply {
  const f = ctx.form.only(["type", "types", "created", "limit", "starting_after", "ending_before", "delivery_success"]);
  const type = f.str("type");
  const types = f.strs("types");
  if (type !== undefined && types !== undefined)
    throw invalid("types", "You may specify either type or types, but not both.");
  const matchers = (types ?? (type !== undefined ? [type] : [])).map(typeMatcher);
  let lo = -Infinity;
  let hi = Infinity;
  const created = f.form.created;
  if (typeof created === "string") {
    const n = f.int("created")!;
    lo = n;
    hi = n;
  } else if (created !== undefined) {
    const c = f.obj("created")!.only(["gt", "gte", "lt", "lte"]);
    if (c.has("gt")) lo = c.int("gt")! + 1;
    if (c.has("gte")) lo = Math.max(lo, c.int("gte")!);
    if (c.has("lt")) hi = c.int("lt")! - 1;
    if (c.has("lte")) hi = Math.min(hi, c.int("lte")!);
  }
  const rows = ctx.env.store
    .events(ctx.account.id, Number.isFinite(lo) ? lo : -1, Number.isFinite(hi) ? hi : Number.MAX_SAFE_INTEGER)
    .filter((e) => matchers.length === 0 || matchers.some((m) => m(e.type)));
  // Only the answered page is parsed.
  const page = listPage(ctx, rows, "/v1/events");
  return { status: 200, body: { ...page, data: page.data.map((e) => JSON.parse(e.doc) as Stripe.Event) } };
}

/** `GET /v1/events/:id`. */
export function getEvent(ctx: ApiCtx): Reply {
  const row = ctx.env.store.event(ctx.params.id!);
  if (!row || row.account !== ctx.account.id) throw noSuch("event", ctx.params.id!);
  return { status: 200, body: JSON.parse(row.doc) as Stripe.Event };
}
