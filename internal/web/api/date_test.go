package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The shared Date value is the one net/http would write, for the second
// asked about, however the seconds follow one another.
func TestHTTPDate(t *testing.T) {
	base := time.Date(2026, 11, 24, 6, 59, 59, 999_000_000, time.FixedZone("", -7*3600))
	for _, d := range []time.Duration{0, time.Millisecond, 2 * time.Millisecond, -time.Second, time.Hour, 0, 500 * time.Millisecond} {
		now := base.Add(d)
		require.Equal(t, []string{now.UTC().Format(http.TimeFormat)}, httpDate(now), "at %v", now)
	}
	first := httpDate(base)
	require.Same(t, &first[0], &httpDate(base.Add(-500 * time.Millisecond))[0], "formatted once within a second")
}
