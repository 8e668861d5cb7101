-- name: HitRateLimit :one
-- One request against bucket, decided and recorded atomically (GCRA). The
-- database clock is the only clock, so processes with skewed clocks agree.
-- emission_us is period / rate, period_us the window the burst refills in;
-- a request is allowed when greatest(tat, now) + emission - period <= now,
-- and only an allowed request advances tat. The SET expressions all read
-- the row as it was before this statement.
INSERT INTO rate_limits (bucket, tat, allowed, updated_at)
VALUES (sqlc.arg(bucket), now() + sqlc.arg(emission_us)::bigint * interval '1 microsecond', true, now())
ON CONFLICT (bucket) DO UPDATE SET
    allowed = greatest(rate_limits.tat, now()) + sqlc.arg(emission_us)::bigint * interval '1 microsecond' - sqlc.arg(period_us)::bigint * interval '1 microsecond' <= now(),
    tat = CASE
        WHEN greatest(rate_limits.tat, now()) + sqlc.arg(emission_us)::bigint * interval '1 microsecond' - sqlc.arg(period_us)::bigint * interval '1 microsecond' <= now()
        THEN greatest(rate_limits.tat, now()) + sqlc.arg(emission_us)::bigint * interval '1 microsecond'
        ELSE rate_limits.tat
    END,
    updated_at = now()
RETURNING allowed, tat, now()::timestamptz AS now;

-- name: DeleteExpiredRateLimits :execrows
-- Rows whose tat has passed carry no information (see the migration);
-- batches keep each delete short.
DELETE FROM rate_limits
WHERE bucket IN (
    SELECT bucket FROM rate_limits WHERE tat < now() ORDER BY tat LIMIT @batch::integer
);
