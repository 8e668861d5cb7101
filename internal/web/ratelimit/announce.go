package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Announcer is a Backend that tells every process sharing it about the
// grants of leased limits, so that each can keep its view of a shared
// bucket current without asking (see Leased).
type Announcer interface {
	Backend
	// Listen subscribes to the grants other processes' Takes announce,
	// calls ready once subscribed, then heard for each of them until ctx
	// ends or the subscription fails, and says why it stopped. busy is how
	// long until the bucket is whole again, as of the grant.
	Listen(ctx context.Context, ready func(), heard func(bucket string, busy time.Duration)) error
}

// announced reports whether grants under limit are announced: only leased
// limits need it. Smaller ones are decided by the backend request by
// request, so their Remaining is exact without it.
func announced(limit Limit) bool { return MaxShare(limit) > 1 }

// newOrigin names a backend instance in its announcements, so that its own
// come back to it and are left aside. 64 random bits: two processes sharing
// a name would only miss each other's announcements.
func newOrigin() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// hear reads the payload of an announced grant, the same for every backend
// ("<origin> <busy in microseconds> <bucket>"), and passes on an announced grant unless it is self's or malformed.
func hear(self, payload string, heard func(bucket string, busy time.Duration)) {
	origin, rest, ok := strings.Cut(payload, " ")
	if !ok || origin == self {
		return
	}
	us, bucket, ok := strings.Cut(rest, " ")
	if !ok || bucket == "" {
		return
	}
	n, err := strconv.ParseInt(us, 10, 64)
	if err != nil || n < 0 {
		return
	}
	heard(bucket, time.Duration(n)*time.Microsecond)
}
