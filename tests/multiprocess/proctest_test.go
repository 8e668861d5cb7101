// Package multiprocess runs two real geoscan API processes (the compiled
// binary) against one database, for what must hold across processes: a
// shared rate limit decided from per-process leases, and a key revocation
// that reaches every process's authentication cache. The package has a
// database of its own.
package multiprocess

import (
	"context"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	binarytest.Remove()
	os.Exit(code)
}

// redisAddr is where the Redis backend is tested when a Redis answers.
const redisAddr = "127.0.0.1:6379"

// skipWithoutRedis skips the test unless a Redis answers at redisAddr.
func skipWithoutRedis(t *testing.T) {
	t.Helper()
	conn, err := (&net.Dialer{Timeout: 500 * time.Millisecond}).DialContext(context.Background(), "tcp", redisAddr)
	if err != nil {
		t.Skipf("Redis backend not tested: no Redis at %s (%v); start one there to run this test", redisAddr, err)
	}
	_ = conn.Close()
}

// pair is two API processes of the binary on the package database, each
// with a harness that validates its answers against openapi.yaml.
type pair struct {
	bin   string
	env   []string
	procs [2]*binarytest.Process
	hs    [2]*apitest.Harness
}

// startPair starts two `geoscan serve --role api` processes with env added
// to the test configuration.
func startPair(t *testing.T, env ...string) *pair {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the geoscan binary")
	}
	p := &pair{bin: binarytest.Build(t)}
	// GEOSCAN_REDIS_URL is named so that a value in the test's own
	// environment cannot change the backend under test.
	p.env = append([]string{"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_REDIS_URL="}, env...)
	for i, name := range []string{"api-a", "api-b"} {
		p.procs[i] = binarytest.Serve(t, name, p.bin, "api", p.env)
	}
	for i := range p.procs {
		p.hs[i] = apitest.Attach(t, p.procs[i].BaseURL(), pgtest.URL())
	}
	t.Cleanup(func() {
		for _, proc := range p.procs {
			apitest.RequireNoKeysIn(t, proc.Logs())
		}
	})
	return p
}

// cli runs a geoscan administration command as a third process, with the
// pair's configuration, and returns what it printed.
func (p *pair) cli(t *testing.T, args ...string) string {
	t.Helper()
	proc := binarytest.Start(t, "geoscan "+args[0]+" "+args[1], p.bin, p.env, args...)
	err := proc.Wait(t, 30*time.Second)
	require.NoError(t, err, "geoscan %v:\n%s", args, proc.Logs())
	return proc.Logs()
}

func headerInt(t *testing.T, r apitest.Response, name string) int {
	t.Helper()
	v := r.Header.Get(name)
	require.NotEmpty(t, v, "%s missing (status %d, body %s)", name, r.Status, r.Body)
	n, err := strconv.Atoi(v)
	require.NoError(t, err, "%s: %q", name, v)
	return n
}
