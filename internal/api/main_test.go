package api_test

import (
	"os"
	"testing"

	"github.com/geoscan/geoscan/internal/apitest"
	"github.com/geoscan/geoscan/internal/pgtest"
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
