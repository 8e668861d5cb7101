package httpserver

import (
	"context"
	"encoding/hex"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
)

// AuthCache keeps verified API keys (by their SHA-256, never the key) and
// organizations' limits in process, so an authenticated request needs no
// database round trip before its own query.
//
// Revocation must still reach every process within a second: a trigger
// announces every revoked or deleted key and every changed organization on
// a PostgreSQL channel (migration 00004), and Run listens on a connection
// of its own and drops what changed. The cache is used only while that
// connection is up; while it is down every request is looked up in the
// database, and when it comes back the cache starts empty, since
// announcements may have been missed meanwhile. A lookup that raced with
// an announcement is not cached (generation check), and entries expire
// after a minute all the same.
type AuthCache struct {
	store  *store.Store
	logger *slog.Logger

	// live is true while the listener is connected.
	live atomic.Bool
	// gen changes with every announcement and flush.
	gen atomic.Uint64

	mu   sync.RWMutex
	keys map[[32]byte]cachedKey
	orgs map[uuid.UUID]cachedLimits
}

type cachedKey struct {
	p       store.Principal
	expires time.Time
}

type cachedLimits struct {
	limits  planlimits.Limits
	expires time.Time
}

const (
	// keyCacheTTL bounds an entry's life even when no announcement comes.
	keyCacheTTL = time.Minute
	// orgLimitsTTL is how long a process reuses an organization's limits
	// while it cannot hear announcements: a changed plan or override then
	// applies within this time.
	orgLimitsTTL = 5 * time.Second
	// maxCached bounds each map; starting over costs one query per entry.
	maxCached = 100_000
)

// NewAuthCache returns a cache that is not used until Run connects.
func NewAuthCache(st *store.Store, logger *slog.Logger) *AuthCache {
	return &AuthCache{store: st, logger: logger, keys: map[[32]byte]cachedKey{}, orgs: map[uuid.UUID]cachedLimits{}}
}

// lookupKey returns the principal of a key hash, from the cache or the
// database. Revoked keys are returned (the caller refuses them) but never
// cached.
func (c *AuthCache) lookupKey(ctx context.Context, hash []byte) (store.Principal, error) {
	var k [32]byte
	copy(k[:], hash)
	if c.live.Load() {
		c.mu.RLock()
		e, ok := c.keys[k]
		c.mu.RUnlock()
		if ok && time.Now().Before(e.expires) {
			return e.p, nil
		}
	}
	gen := c.gen.Load()
	p, err := c.store.LookupKey(ctx, hash)
	if err != nil || p.RevokedAt != nil {
		return p, err
	}
	c.mu.Lock()
	if c.live.Load() && c.gen.Load() == gen {
		if len(c.keys) >= maxCached {
			c.keys = map[[32]byte]cachedKey{}
		}
		c.keys[k] = cachedKey{p: p, expires: time.Now().Add(keyCacheTTL)}
	}
	c.mu.Unlock()
	return p, nil
}

// limits returns an organization's limits (plan and overrides).
func (c *AuthCache) limits(ctx context.Context, org uuid.UUID) (planlimits.Limits, error) {
	now := time.Now()
	c.mu.RLock()
	e, ok := c.orgs[org]
	c.mu.RUnlock()
	if ok && now.Before(e.expires) {
		return e.limits, nil
	}
	gen := c.gen.Load()
	live := c.live.Load()
	o, err := c.store.GetOrganization(ctx, org)
	if err != nil {
		return planlimits.Limits{}, err
	}
	l := store.Limits(o)
	ttl := orgLimitsTTL
	if live {
		ttl = keyCacheTTL
	}
	c.mu.Lock()
	if c.gen.Load() == gen {
		if len(c.orgs) >= maxCached {
			c.orgs = map[uuid.UUID]cachedLimits{}
		}
		c.orgs[org] = cachedLimits{limits: l, expires: now.Add(ttl)}
	}
	c.mu.Unlock()
	return l, nil
}

// forget drops what an announcement names.
func (c *AuthCache) forget(payload string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	switch kind, id, _ := strings.Cut(payload, ":"); kind {
	case "key":
		var k [32]byte
		if b, err := hex.DecodeString(id); err == nil && len(b) == len(k) {
			copy(k[:], b)
			delete(c.keys, k)
			return
		}
	case "org":
		if org, err := uuid.Parse(id); err == nil {
			delete(c.orgs, org)
			for k, e := range c.keys {
				if e.p.OrgID == org {
					delete(c.keys, k)
				}
			}
			return
		}
	}
	// Not understood: drop everything rather than keep something stale.
	c.flushLocked()
}

func (c *AuthCache) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	c.flushLocked()
}

func (c *AuthCache) flushLocked() {
	clear(c.keys)
	clear(c.orgs)
}

// Run listens for announcements until ctx ends, reconnecting after a
// failure; the cache is in use only while it is connected.
func (c *AuthCache) Run(ctx context.Context) {
	var lastLog time.Time
	for ctx.Err() == nil {
		l, err := c.store.ListenAuth(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if time.Since(lastLog) >= 10*time.Second {
				lastLog = time.Now()
				c.logger.Warn("authentication cache off: cannot listen for key revocations", slog.String("error", err.Error()))
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			continue
		}
		c.flush()
		c.live.Store(true)
		// Said once per connection, so an operator sees the cache come back
		// after an outage (and tests of other processes know it is in use).
		c.logger.Info("authentication cache on: listening for key revocations")
		for {
			payload, err := l.Wait(ctx)
			if err != nil {
				break
			}
			c.forget(payload)
		}
		c.live.Store(false)
		c.flush()
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		_ = l.Close(cctx)
		cancel()
	}
}

// Live reports whether the cache is in use (tests wait for it).
func (c *AuthCache) Live() bool { return c.live.Load() }
