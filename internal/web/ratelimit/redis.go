package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis keeps the buckets in Redis, one GCRA script call per take, timed
// by the Redis server's clock. It is used when GEOSCAN_REDIS_URL is set.
// Grants of leased limits are published by the same script.
type Redis struct {
	client *redis.Client
	prefix string
	origin string
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
	return &Redis{client: c, prefix: "geoscan:", origin: newOrigin()}, nil
}

func nonZero(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// WithPrefix returns a limiter on the same connection whose bucket names
// and announcement channel start with prefix (tests isolate themselves
// with it).
func (r *Redis) WithPrefix(prefix string) *Redis {
	return &Redis{client: r.client, prefix: prefix, origin: r.origin}
}

// Ping checks that Redis answers.
func (r *Redis) Ping(ctx context.Context) error { return r.client.Ping(ctx).Err() }

// Close closes the connections.
func (r *Redis) Close() error { return r.client.Close() }

// Allow implements Limiter: one request, decided exactly by Redis. It
// announces nothing: a limiter used this way holds no lease.
func (r *Redis) Allow(ctx context.Context, bucket string, limit Limit) (Result, error) {
	g, err := r.take(ctx, bucket, limit, 1, false)
	if err != nil {
		return Result{}, err
	}
	return g.result(limit), nil
}

// Take implements Backend with one script call, which publishes a grant of
// a leased limit.
func (r *Redis) Take(ctx context.Context, bucket string, limit Limit, n int) (Grant, error) {
	return r.take(ctx, bucket, limit, n, announced(limit))
}

// take takes up to ARGV[3] emissions of ARGV[1] microseconds from a bucket
// whose burst is ARGV[2] requests. The tat is kept as redis_rate keeps it
// (seconds since 2017-01-01 as a float, the Redis server's clock), so
// buckets survive a change of implementation; the arithmetic is in whole
// microseconds, where a double is exact, so a full bucket grants exactly
// its burst. A grant is published on ARGV[4], unless it is empty, as
// "ARGV[5] <busy_us> ARGV[6]". It returns the grant and the microseconds
// until the bucket is whole again.
var take = redis.NewScript(`
local t = redis.call("TIME")
local now = (t[1] - 1483228800) * 1000000 + t[2]
local emission = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local stored = redis.call("GET", KEYS[1])
local tat = now
if stored then
  tat = math.max(math.floor(tonumber(stored) * 1000000 + 0.5), now)
end
local free = math.floor((burst * emission - (tat - now)) / emission)
local granted = math.max(math.min(n, free), 0)
if granted > 0 then
  tat = tat + granted * emission
  redis.call("SET", KEYS[1], string.format("%.6f", tat / 1000000), "EX", math.ceil((tat - now) / 1000000))
  if ARGV[4] ~= "" then
    redis.call("PUBLISH", ARGV[4], ARGV[5] .. " " .. string.format("%d", tat - now) .. " " .. ARGV[6])
  end
end
return {granted, tat - now}
`)

func (r *Redis) take(ctx context.Context, bucket string, limit Limit, n int, announce bool) (Grant, error) {
	channel := ""
	if announce {
		channel = r.channel()
	}
	args := []any{limit.emission().Microseconds(), max(limit.Rate, 1), max(n, 1), channel, r.origin, bucket}
	v, err := take.Run(ctx, r.client, []string{redisRatePrefix + r.prefix + bucket}, args...).Int64Slice()
	if err != nil {
		return Grant{}, fmt.Errorf("redis rate limit: %w", err)
	}
	if len(v) != 2 {
		return Grant{}, fmt.Errorf("redis rate limit: unexpected reply %v", v)
	}
	return grant(limit, int(v[0]), time.Duration(v[1])*time.Microsecond), nil
}

// channel is where grants are announced.
func (r *Redis) channel() string { return r.prefix + "ratelimit" }

// giveBack moves a bucket's tat back by n emissions, never before now.
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

// Give implements Backend. Giving back is not announced: other processes'
// views then understate what is left, by no more than was given back.
func (r *Redis) Give(ctx context.Context, bucket string, limit Limit, n int) error {
	if n <= 0 {
		return nil
	}
	if err := giveBack.Run(ctx, r.client, []string{redisRatePrefix + r.prefix + bucket}, n, limit.emission().Seconds()).Err(); err != nil {
		return fmt.Errorf("redis rate limit: %w", err)
	}
	return nil
}

// Listen implements Announcer with SUBSCRIBE on a connection of its own.
func (r *Redis) Listen(ctx context.Context, ready func(), heard func(bucket string, busy time.Duration)) error {
	sub := r.client.Subscribe(ctx, r.channel())
	// A blocked read does not watch ctx: closing the subscription ends it.
	stop := context.AfterFunc(ctx, func() { _ = sub.Close() })
	defer func() {
		stop()
		_ = sub.Close()
	}()
	// The first reply confirms the subscription.
	if _, err := sub.Receive(ctx); err != nil {
		return fmt.Errorf("redis subscribe: %w", err)
	}
	ready()
	for {
		msg, err := sub.ReceiveMessage(ctx)
		if err != nil {
			return fmt.Errorf("redis subscription: %w", err)
		}
		hear(r.origin, msg.Payload, heard)
	}
}

// redisRatePrefix is the prefix of every bucket's key (redis_rate's, kept
// so that existing buckets keep counting).
const redisRatePrefix = "rate:"
