package ratelimit

import (
	"context"
	"log/slog"
	"time"
)

// NewLeasedTTL is NewLeased with a lease lifetime of the test's choosing.
func NewLeasedTTL(backend Backend, logger *slog.Logger, ttl time.Duration) *Leased {
	return newLeased(context.Background(), backend, logger, ttl)
}

// Peer is the backend as another process sees it: the same buckets, an
// origin of its own.
func (p *Postgres) Peer() *Postgres { return &Postgres{store: p.store, origin: newOrigin()} }

// Peer is the backend as another process sees it: the same buckets and
// channel, an origin of its own.
func (r *Redis) Peer() *Redis { return &Redis{client: r.client, prefix: r.prefix, origin: newOrigin()} }

// RemainingNow is what this process would say remains of bucket now (its
// unspent tokens and its view of the shared bucket), without deciding a
// request; -1 if it does not track the bucket.
func (l *Leased) RemainingNow(bucket string) int {
	l.mu.RLock()
	b := l.buckets[bucket]
	l.mu.RUnlock()
	if b == nil {
		return -1
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return min(b.tokens+b.limit.available(time.Until(b.tat)), b.limit.Rate)
}
