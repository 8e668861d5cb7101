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

// Allow implements Limiter.
func (r *Redis) Allow(ctx context.Context, bucket string, limit Limit) (Result, error) {
	rate := max(limit.Rate, 1)
	res, err := r.limiter.Allow(ctx, r.prefix+bucket, redis_rate.Limit{Rate: rate, Burst: rate, Period: limit.Period})
	if err != nil {
		return Result{}, fmt.Errorf("redis rate limit: %w", err)
	}
	out := Result{Allowed: res.Allowed > 0, Limit: limit, Remaining: res.Remaining, ResetAfter: max(res.ResetAfter, 0)}
	if !out.Allowed {
		out.RetryAfter = max(res.RetryAfter, time.Millisecond)
	}
	return out, nil
}
