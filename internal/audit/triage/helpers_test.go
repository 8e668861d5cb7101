package triage_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/testing/audittest"
)

func TestMain(m *testing.M) { audittest.Main(m) }

// checkedAt is when the triage tests' audits are made.
var checkedAt = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// fetched is one fixture site as read, once per test binary.
func fetched(t testing.TB, name string) *fetch.Site {
	t.Helper()
	return audittest.Site(t, name)
}

// audited audits a site already read, under the brand a scan gets by
// default (the registrable name), and fails the test when the dossier
// could not be built.
func audited(t testing.TB, site *fetch.Site) audit.Result {
	t.Helper()
	target := audit.Target{URL: site.Target, BrandName: netguard.RegistrableName(site.Target.Host)}
	res, err := audit.Run(context.Background(), target, audit.Options{Site: site, Now: func() time.Time { return checkedAt }})
	require.NoError(t, err)
	require.NoError(t, res.TriageErr)
	return res
}
