package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Redis keeps the buckets in Redis with redis_rate's GCRA script, timed by
// the Redis server's clock. It is used when GEOSCAN_REDIS_URL is set.
type Redis struct {
	client  *redis.Client
	limiter *redis_rate.Limiter
	prefix  string
}

// NewRedis connects lazily to the Redis at url (redis:// or rediss://).
// Short timeouts keep a slow Redis from holding requests: past them the
// guard fails open.
func NewRedis(url string) (*Redis, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("parse GEOSCAN_REDIS_URL: %w", err)
	}
	opt.DialTimeout = min(nonZero(opt.DialTimeout, time.Second), time.Second)
	opt.ReadTimeout = min(nonZero(opt.ReadTimeout, 500*time.Millisecond), 500*time.Millisecond)
	opt.WriteTimeout = min(nonZero(opt.WriteTimeout, 500*time.Millisecond), 500*time.Millisecond)
	// A rate-limit check is not worth waiting for: no retries, one dial
	// attempt. A failure is allowed through by the guard.
	opt.MaxRetries = -1
	opt.DialerRetries = 1
	c := redis.NewClient(opt)
	return &Redis{client: c, limiter: redis_rate.NewLimiter(c), prefix: "geoscan:"}, nil
}

func nonZero(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// WithPrefix returns a limiter on the same connection whose bucket names
// start with prefix (tests isolate themselves with it).
func (r *Redis) WithPrefix(prefix string) *Redis {
	return &Redis{client: r.client, limiter: r.limiter, prefix: prefix}
}

// Ping checks that Redis answers.
func (r *Redis) Ping(ctx context.Context) error { return r.client.Ping(ctx).Err() }

// Close closes the connections.
func (r *Redis) Close() error { return r.client.Close() }

// Allow implements Limiter: one request, decided exactly by Redis.
func (r *Redis) Allow(ctx context.Context, bucket string, limit Limit) (Result, error) {
	g, err := r.Take(ctx, bucket, limit, 1)
	if err != nil {
		return Result{}, err
	}
	return g.result(limit), nil
}

// redisLimit is limit in redis_rate's terms, with the emission rounded to
// the microsecond as everywhere else, so that Give undoes Take exactly.
func redisLimit(limit Limit) redis_rate.Limit {
	rate := max(limit.Rate, 1)
	return redis_rate.Limit{Rate: rate, Burst: rate, Period: limit.emission() * time.Duration(rate)}
}

// Take implements Backend with redis_rate's AllowAtMost, one script call.
func (r *Redis) Take(ctx context.Context, bucket string, limit Limit, n int) (Grant, error) {
	res, err := r.limiter.AllowAtMost(ctx, r.prefix+bucket, redisLimit(limit), max(n, 1))
	if err != nil {
		return Grant{}, fmt.Errorf("redis rate limit: %w", err)
	}
	return grant(limit, res.Allowed, max(res.ResetAfter, 0)), nil
}

// giveBack moves a redis_rate bucket's tat back by n emissions, never
// before now, in redis_rate's own representation (seconds since
// 2017-01-01 as a float, the Redis server's clock).
var giveBack = redis.NewScript(`
local tat = redis.call("GET", KEYS[1])
if not tat then
  return 0
end
local t = redis.call("TIME")
local now = (t[1] - 1483228800) + (t[2] / 1000000)
local new_tat = tonumber(tat) - tonumber(ARGV[1]) * tonumber(ARGV[2])
if new_tat <= now then
  redis.call("DEL", KEYS[1])
else
  redis.call("SET", KEYS[1], new_tat, "EX", math.ceil(new_tat - now))
end
return 1
`)

// Give implements Backend.
func (r *Redis) Give(ctx context.Context, bucket string, limit Limit, n int) error {
	if n <= 0 {
		return nil
	}
	if err := giveBack.Run(ctx, r.client, []string{redisRatePrefix + r.prefix + bucket}, n, limit.emission().Seconds()).Err(); err != nil {
		return fmt.Errorf("redis rate limit: %w", err)
	}
	return nil
}

// redisRatePrefix is the prefix redis_rate puts before every key.
const redisRatePrefix = "rate:"
