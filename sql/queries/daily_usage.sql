-- name: ConsumeDailyScan :one
-- Takes one scan of today's quota atomically; returns no row when the quota is
-- used up, so concurrent creates can never overshoot. A limit of 0 (an
-- operator's override) allows not even the day's first scan.
INSERT INTO daily_usage AS u (org_id, day, scans)
SELECT @org_id, @day, 1 WHERE @daily_limit::integer > 0
ON CONFLICT (org_id, day) DO UPDATE SET scans = u.scans + 1
WHERE u.scans < @daily_limit::integer
RETURNING scans;

-- name: GetDailyUsage :one
SELECT coalesce((SELECT scans FROM daily_usage WHERE org_id = @org_id AND day = @day), 0)::integer AS scans;
