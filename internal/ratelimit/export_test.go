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
