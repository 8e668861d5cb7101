// Package audittest audits the local fixture sites (internal/testing/testsite)
// through audit.Run, as a scan does, for the tests and benchmarks of the
// engine's packages. The fixture sites start once per test binary, whose
// TestMain is Main.
package audittest

import (
	"context"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// Now is the time fixture audits are made at unless a test gives its own,
// so what they build does not change with the clock.
var Now = time.Date(2026, 11, 22, 5, 28, 42, 0, time.UTC)

var (
	once    sync.Once
	sites   *testsite.Server
	fetcher *fetch.Fetcher
	caFile  string
	err     error

	readMu sync.Mutex
	read   = map[string]*fetch.Site{}
)

// Main runs a test binary's tests, then removes the fixture sites' CA
// files: the TestMain of a package that uses this kit.
func Main(m *testing.M) {
	code := m.Run()
	testsite.RemoveTempCAFiles()
	os.Exit(code)
}

// Sites returns the fixture sites and a fetcher that reaches them: the
// sites' resolver and CA, private addresses allowed.
func Sites(t testing.TB) (*testsite.Server, *fetch.Fetcher) {
	t.Helper()
	once.Do(func() {
		if sites, err = testsite.Start(); err != nil {
			return
		}
		if caFile, err = sites.WriteTempCAFile(); err != nil {
			return
		}
		fetcher, err = NewFetcher(sites, caFile)
	})
	require.NoError(t, err, "start the fixture sites")
	return sites, fetcher
}

// CAFile is the file of the fixture sites' CA, for a process that must
// trust them (GEOSCAN_EXTRA_CA_FILE).
func CAFile(t testing.TB) string {
	t.Helper()
	Sites(t)
	return caFile
}

// NewFetcher is a fetcher of the fixture sites s, trusting the CA in
// caFile.
func NewFetcher(s *testsite.Server, caFile string) (*fetch.Fetcher, error) {
	return fetch.New(fetch.Options{AllowPrivate: true, ExtraCAFile: caFile, Resolver: s.Resolver(), PlainHTTPPort: s.HTTPPort()})
}

// URL is the address of a fixture site.
func URL(t testing.TB, name string) *url.URL {
	t.Helper()
	s, _ := Sites(t)
	u, err := url.Parse(s.URL(name))
	require.NoError(t, err)
	return u
}

// Target is a fixture site to audit under brand, or, when brand is empty,
// under the brand a scan gets by default: the registrable name of its host.
func Target(t testing.TB, name, brand string) audit.Target {
	t.Helper()
	u := URL(t, name)
	if brand == "" {
		brand = netguard.RegistrableName(u.Hostname())
	}
	return audit.Target{URL: u, BrandName: brand}
}

// Site is a fixture site as read, fetched once per test binary.
func Site(t testing.TB, name string) *fetch.Site {
	t.Helper()
	_, f := Sites(t)
	readMu.Lock()
	defer readMu.Unlock()
	if s, ok := read[name]; ok {
		return s
	}
	s, err := f.Site(context.Background(), URL(t, name))
	require.NoError(t, err, "read fixture site %s", name)
	read[name] = s
	return s
}

// Run audits a fixture site under brand (see Target) as read once per test
// binary (Site), at Now unless opts says otherwise, and fails the test when
// the audit does.
func Run(t testing.TB, name, brand string, opts audit.Options) audit.Result {
	t.Helper()
	target := Target(t, name, brand)
	if opts.Site == nil && opts.Fetcher == nil {
		opts.Site = Site(t, name)
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return Now }
	}
	res, err := audit.Run(context.Background(), target, opts)
	require.NoError(t, err, "audit %s", name)
	return res
}
