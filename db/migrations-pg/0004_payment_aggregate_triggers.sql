-- Custom migration (drizzle-kit generate --custom): the payment aggregates on PostgreSQL, the twin
-- of SQLite's triggers (src/store/sqlite/stats-aggregates.ts). Every write of a transaction's
-- counted columns adds to (subtracts from) its cells in payment_daily_stats, payment_pay_time_hist
-- and payment_pay_time_hist_monthly, in the same transaction, whoever writes it. Each session
-- writes only its own shard rows (shard = pg_backend_pid() & 1023; a session runs one
-- transaction at a time), so concurrent writers of one merchant's day never wait on one
-- another (issue 17: no row that every write must lock); readers sum the shards
-- (src/store/pg/stats.ts). A subtraction may leave a shard's count negative: only sums mean
-- anything. Days are America/Sao_Paulo days at the fixed offset UTC-3; buckets are 5% wide.
LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- The São Paulo creation day (YYYY-MM-DD) of epoch ms `created_at`: SQLite's
-- strftime('%Y-%m-%d', created_at / 1000 - 10800, 'unixepoch') (integer division, as there).
CREATE FUNCTION payment_stats_day(p_created_at bigint) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT to_char(to_timestamp((p_created_at / 1000 - 10800)::float8) AT TIME ZONE 'UTC', 'YYYY-MM-DD') $$;
--> statement-breakpoint
-- The time-to-pay bucket: bucket b holds [1.05^b - 1, 1.05^(b+1) - 1) seconds. In float8 as
-- SQLite computes it, and floor() where SQLite's CAST AS INTEGER truncates (the value is >= 0;
-- PostgreSQL's ::bigint would round).
CREATE FUNCTION payment_stats_bucket(p_created_at bigint, p_paid_at bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT floor(ln(1.0::float8 + greatest(0::float8, (p_paid_at - p_created_at)::float8 / 1000.0::float8)) / ln(1.05::float8))::bigint $$;
--> statement-breakpoint
-- Adds one transaction's values times p_sign (1 or -1) to its cells, in this session's shard.
-- insert ... on conflict also for subtractions: a shard row that does not exist yet is created.
CREATE FUNCTION payment_stats_add(
  p_account_id text, p_livemode boolean, p_created_at bigint, p_currency text, p_paid_with text,
  p_status text, p_paid_at bigint, p_amount bigint, p_refunded bigint, p_sign bigint
) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  v_shard bigint := pg_backend_pid() & 1023;
  v_day text := payment_stats_day(p_created_at);
  v_bucket bigint;
BEGIN
  INSERT INTO payment_daily_stats AS s (account_id, livemode, day, currency, method, status, paid, shard, count, amount, refunded)
  VALUES (p_account_id, p_livemode, v_day, p_currency, coalesce(p_paid_with, ''), p_status,
          CASE WHEN p_paid_at IS NULL THEN 0 ELSE 1 END, v_shard, p_sign, p_sign * p_amount, p_sign * p_refunded)
  ON CONFLICT (account_id, livemode, day, currency, method, status, paid, shard) DO UPDATE
    SET count = s.count + excluded.count, amount = s.amount + excluded.amount, refunded = s.refunded + excluded.refunded;
  IF p_paid_at IS NOT NULL THEN
    v_bucket := payment_stats_bucket(p_created_at, p_paid_at);
    INSERT INTO payment_pay_time_hist AS h (account_id, livemode, day, currency, bucket, shard, count)
    VALUES (p_account_id, p_livemode, v_day, p_currency, v_bucket, v_shard, p_sign)
    ON CONFLICT (account_id, livemode, day, currency, bucket, shard) DO UPDATE SET count = h.count + excluded.count;
    INSERT INTO payment_pay_time_hist_monthly AS h (account_id, livemode, month, currency, bucket, shard, count)
    VALUES (p_account_id, p_livemode, substr(v_day, 1, 7), p_currency, v_bucket, v_shard, p_sign)
    ON CONFLICT (account_id, livemode, month, currency, bucket, shard) DO UPDATE SET count = h.count + excluded.count;
  END IF;
END
$$;
--> statement-breakpoint
-- The row trigger: an insert adds NEW, a delete subtracts OLD, an update of a counted column does both.
CREATE FUNCTION payment_stats_trigger() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM payment_stats_add(OLD.account_id, OLD.livemode, OLD.created_at, OLD.currency, OLD.paid_with,
                              OLD.status, OLD.paid_at, OLD.amount, OLD.refunded_amount, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM payment_stats_add(NEW.account_id, NEW.livemode, NEW.created_at, NEW.currency, NEW.paid_with,
                              NEW.status, NEW.paid_at, NEW.amount, NEW.refunded_amount, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payment_stats_ai AFTER INSERT ON "transactions"
FOR EACH ROW EXECUTE FUNCTION payment_stats_trigger();
--> statement-breakpoint
CREATE TRIGGER payment_stats_au
AFTER UPDATE OF status, paid_with, paid_at, amount, refunded_amount, currency, created_at, account_id, livemode ON "transactions"
FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.paid_with IS DISTINCT FROM NEW.paid_with
      OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.amount IS DISTINCT FROM NEW.amount
      OR OLD.refunded_amount IS DISTINCT FROM NEW.refunded_amount OR OLD.currency IS DISTINCT FROM NEW.currency
      OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.account_id IS DISTINCT FROM NEW.account_id
      OR OLD.livemode IS DISTINCT FROM NEW.livemode)
EXECUTE FUNCTION payment_stats_trigger();
--> statement-breakpoint
CREATE TRIGGER payment_stats_ad AFTER DELETE ON "transactions"
FOR EACH ROW EXECUTE FUNCTION payment_stats_trigger();
--> statement-breakpoint
-- Transactions stored before the triggers: rebuild the aggregates from them, in shard 0 (the
-- table is locked until this migration commits, so no write falls between).
DELETE FROM payment_daily_stats;
--> statement-breakpoint
DELETE FROM payment_pay_time_hist;
--> statement-breakpoint
DELETE FROM payment_pay_time_hist_monthly;
--> statement-breakpoint
INSERT INTO payment_daily_stats (account_id, livemode, day, currency, method, status, paid, shard, count, amount, refunded)
SELECT account_id, livemode, payment_stats_day(created_at), currency, coalesce(paid_with, ''), status,
       CASE WHEN paid_at IS NULL THEN 0 ELSE 1 END, 0, count(*), sum(amount), sum(refunded_amount)
FROM "transactions" GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO payment_pay_time_hist (account_id, livemode, day, currency, bucket, shard, count)
SELECT account_id, livemode, payment_stats_day(created_at), currency, payment_stats_bucket(created_at, paid_at), 0, count(*)
FROM "transactions" WHERE paid_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO payment_pay_time_hist_monthly (account_id, livemode, month, currency, bucket, shard, count)
SELECT account_id, livemode, substr(day, 1, 7), currency, bucket, 0, sum(count)
FROM payment_pay_time_hist GROUP BY 1, 2, 3, 4, 5;
