package api_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// start boots the application for one test on the package database.
func start(t *testing.T, opts ...apitest.Options) *apitest.Harness {
	t.Helper()
	var o apitest.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	return apitest.Start(t, pgtest.URL(), o)
}

// startOptions resolves the default test hosts plus extra ones.
func startOptions(extra map[string][]string) apitest.Options {
	hosts := map[string][]string{}
	for k, v := range apitest.DefaultHosts {
		hosts[k] = v
	}
	for k, v := range extra {
		hosts[k] = v
	}
	return apitest.Options{Hosts: hosts}
}

// roomyRateLimits lifts an organization's per-minute rate limits for a test
// that sends more requests than a plan allows in a minute while checking
// something else; the rate limits have their own tests.
func roomyRateLimits(t *testing.T, h *apitest.Harness, org apitest.Org) {
	t.Helper()
	_, err := h.Store.Pool().Exec(context.Background(),
		"UPDATE organizations SET rate_limit_write_override = 10000, rate_limit_read_override = 10000 WHERE id = $1", org.ID)
	require.NoError(t, err)
}
