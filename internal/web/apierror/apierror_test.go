package apierror

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	geoscan "github.com/geoscan/geoscan"
)

// TestCatalogueIsDocumented keeps the contract's error table and the code
// catalogue in step: every code a handler can return is documented with the
// status it is sent with.
func TestCatalogueIsDocumented(t *testing.T) {
	t.Parallel()
	spec := string(geoscan.OpenAPIYAML)
	for code, status := range Catalogue {
		row := "| " + itoa(status) + " | `" + string(code) + "` |"
		require.Contains(t, spec, row, "openapi.yaml's error table lacks %s", code)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestEnvelope(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(New(CodeScanNotFound, "scan_id", "No scan with id %s.", "x").Envelope())
	require.NoError(t, err)
	require.JSONEq(t, `{"error":{"type":"not_found","code":"scan_not_found","message":"No scan with id x.","param":"scan_id"}}`, string(b))

	b, err = json.Marshal(New(CodeInvalidJSON, "", "Bad.").Envelope())
	require.NoError(t, err)
	require.JSONEq(t, `{"error":{"type":"invalid_request","code":"invalid_json","message":"Bad.","param":null}}`, string(b))
}

func TestTypeForStatus(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]Type{
		400: TypeInvalidRequest, 405: TypeInvalidRequest, 413: TypeInvalidRequest, 422: TypeInvalidRequest,
		401: TypeAuthentication, 402: TypeBilling, 404: TypeNotFound, 429: TypeRateLimit, 500: TypeAPI, http.StatusServiceUnavailable: TypeAPI,
	} {
		require.Equal(t, want, TypeForStatus(status), "status %d", status)
	}
}
