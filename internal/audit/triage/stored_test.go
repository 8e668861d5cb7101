package triage_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/jsonshape"
)

// The stored dossier is the contract's TriageDossier once per audience
// (see the package doc). Its shape is pinned: a change of openapi.yaml that
// changes it is a change of every dossier already stored, to be decided on
// (recompute or migrate them), not discovered when an old scan is served.
func TestStoredShapeIsPinned(t *testing.T) {
	t.Parallel()
	jsonshape.RequirePinned(t, filepath.Join("testdata", "stored.shape.golden"), triage.Stored{}, *update,
		"the stored dossier changed shape; stored dossiers must be recomputed or migrated with it")
}

// A built dossier survives storing: decoding the stored JSON and encoding
// it again gives the same bytes.
func TestStoredDossierRoundTrips(t *testing.T) {
	t.Parallel()
	site := htmlSite(t, http.Header{"X-Powered-By": {"Next.js"}},
		`<html><head><meta name="generator" content="WordPress 6.5"></head><body><div id="__next"><p>Hi</p></div></body></html>`)
	jsonshape.RequireRoundTrip(t, *audited(t, site).Triage)
}
