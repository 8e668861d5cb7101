-- name: TakeRateLimit :one
-- Takes up to n requests of bucket's allowance at once (GCRA), atomically:
-- granted is min(n, what the bucket holds now), 0 when it is empty, and
-- tat advances by granted emissions. The database clock is the only clock,
-- so processes with skewed clocks agree. emission_us is period / rate,
-- period_us the window the burst refills in. The SET expressions all read
-- the row as it was before this statement.
--
-- When origin is not empty a grant is announced, in the same transaction,
-- on the geoscan_ratelimit channel as '<origin> <busy_us> <bucket>', busy_us
-- being how long until the bucket is whole again (tat - now, database
-- clock), so other processes can follow the bucket without asking. A
-- refusal changes nothing and is not announced. pg_notify sits behind a
-- one-time filter, so it runs only for an announced grant, and the select
-- reads announcement.origin, so the planner keeps the join.
WITH taken AS (
    INSERT INTO rate_limits (bucket, tat, allowed, granted, updated_at)
    VALUES (sqlc.arg(bucket),
            now() + least(sqlc.arg(n)::integer, sqlc.arg(period_us)::bigint / sqlc.arg(emission_us)::bigint) * sqlc.arg(emission_us)::bigint * interval '1 microsecond',
            true, least(sqlc.arg(n)::integer, sqlc.arg(period_us)::bigint / sqlc.arg(emission_us)::bigint), now())
    ON CONFLICT (bucket) DO UPDATE SET
        granted = greatest(0, least(sqlc.arg(n)::integer,
            floor((sqlc.arg(period_us)::bigint - extract(epoch FROM greatest(rate_limits.tat, now()) - now()) * 1000000) / sqlc.arg(emission_us)::bigint)))::integer,
        allowed = least(sqlc.arg(n)::integer,
            floor((sqlc.arg(period_us)::bigint - extract(epoch FROM greatest(rate_limits.tat, now()) - now()) * 1000000) / sqlc.arg(emission_us)::bigint)) >= 1,
        tat = greatest(rate_limits.tat, now()) + greatest(0, least(sqlc.arg(n)::integer,
            floor((sqlc.arg(period_us)::bigint - extract(epoch FROM greatest(rate_limits.tat, now()) - now()) * 1000000) / sqlc.arg(emission_us)::bigint)))
            * sqlc.arg(emission_us)::bigint * interval '1 microsecond',
        updated_at = now()
    RETURNING rate_limits.granted, rate_limits.tat, now()::timestamptz AS now
)
SELECT taken.granted, taken.tat, taken.now, (announcement.origin IS NOT NULL)::boolean AS announced
FROM taken
LEFT JOIN LATERAL (
    SELECT sqlc.arg(origin)::text AS origin,
           pg_notify('geoscan_ratelimit', sqlc.arg(origin)::text || ' '
               || (extract(epoch FROM taken.tat - taken.now) * 1000000)::bigint::text || ' ' || sqlc.arg(bucket)::text)
    WHERE sqlc.arg(origin)::text <> '' AND taken.granted > 0
) AS announcement ON true;

-- name: ListenRateLimits :exec
-- Subscribes the connection to the grants announced by TakeRateLimit.
LISTEN geoscan_ratelimit;

-- name: GiveRateLimit :exec
-- Gives back n requests taken and not spent: tat moves back, never before
-- now, so a bucket never holds more than its burst.
UPDATE rate_limits
SET tat = greatest(tat - sqlc.arg(n)::integer * sqlc.arg(emission_us)::bigint * interval '1 microsecond', now()),
    updated_at = now()
WHERE bucket = sqlc.arg(bucket);

-- name: DeleteExpiredRateLimits :execrows
-- Rows whose tat has passed carry no information (see the migration);
-- batches keep each delete short.
DELETE FROM rate_limits
WHERE bucket IN (
    SELECT bucket FROM rate_limits WHERE tat < now() ORDER BY tat LIMIT @batch::integer
);
