-- name: TakeRateLimit :one
-- Takes up to n requests of bucket's allowance at once (GCRA), atomically:
-- granted is min(n, what the bucket holds now), 0 when it is empty, and
-- tat advances by granted emissions. The database clock is the only clock,
-- so processes with skewed clocks agree. emission_us is period / rate,
-- period_us the window the burst refills in. The SET expressions all read
-- the row as it was before this statement.
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
RETURNING granted, tat, now()::timestamptz AS now;

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
