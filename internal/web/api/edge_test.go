package api_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// cursorOf builds a cursor the way the API encodes one, from raw parts.
func cursorOf(micros, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(micros + "." + id))
}

// TestHostileInputAtTheEdge sends, through real HTTP with every answer
// validated against openapi.yaml, the inputs PostgreSQL cannot store and
// the requests that used to escape the error contract: each must be
// refused with the envelope, the right status and code, and the parameter
// named, before anything reaches the database.
func TestHostileInputAtTheEdge(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)
	created := h.Do(t, "POST", "/api/v1/scans", org.Key, `{"url":"https://example.com/"}`)
	require.Equal(t, http.StatusCreated, created.Status, "body: %s", created.Body)
	var scan struct{ ID string }
	created.JSON(t, &scan)
	sid := scan.ID
	id := uuid.NewString()

	tooEarly := cursorOf("-210866803200000001", id) // before 4713 BC
	for _, tc := range []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		code, param              string
	}{
		// Text PostgreSQL cannot store, in bodies.
		{name: "NUL in brand_name on create", method: "POST", path: "/api/v1/scans", body: `{"url":"https://example.com/","brand_name":"Ex\u0000ample"}`, status: 422, code: "invalid_parameter", param: "brand_name"},
		{name: "NUL alone in brand_name", method: "POST", path: "/api/v1/scans", body: `{"url":"https://example.com/","brand_name":"\u0000"}`, status: 422, code: "invalid_parameter", param: "brand_name"},
		{name: "NUL in project on create", method: "POST", path: "/api/v1/scans", body: `{"url":"https://example.com/","project":"a\u0000"}`, status: 422, code: "invalid_parameter", param: "project"},
		{name: "NUL in schedule brand_name", method: "POST", path: "/api/v1/schedules", body: `{"url":"https://example.com/","brand_name":"\u0000x"}`, status: 422, code: "invalid_parameter", param: "brand_name"},
		{name: "NUL in project on update", method: "PATCH", path: "/api/v1/scans/" + sid, body: `{"project":"q4\u0000"}`, status: 422, code: "invalid_parameter", param: "project"},
		{name: "NUL in tracked_url on update", method: "PATCH", path: "/api/v1/scans/" + sid, body: `{"tracked_url":"https://example.com/\u0000"}`, status: 422, code: "invalid_parameter", param: "tracked_url"},
		{name: "invalid UTF-8 in a body", method: "POST", path: "/api/v1/scans", body: "{\"url\":\"https://example.com/\",\"brand_name\":\"\xff\xfe\"}", status: 400, code: "invalid_json"},
		// ... in query parameters, on lists and exports.
		{name: "NUL project on list", method: "GET", path: "/api/v1/scans?project=%00", status: 422, code: "invalid_parameter", param: "project"},
		{name: "NUL domain on list", method: "GET", path: "/api/v1/scans?domain=%00", status: 422, code: "invalid_parameter", param: "domain"},
		{name: "invalid UTF-8 project on list", method: "GET", path: "/api/v1/scans?project=%ff%fe", status: 422, code: "invalid_parameter", param: "project"},
		{name: "invalid UTF-8 domain on list", method: "GET", path: "/api/v1/scans?domain=ex%c3ample.com", status: 422, code: "invalid_parameter", param: "domain"},
		{name: "NUL url on list", method: "GET", path: "/api/v1/scans?url=https://example.com/%00", status: 422, code: "invalid_parameter", param: "url"},
		{name: "NUL project on export", method: "GET", path: "/api/v1/scans/export?project=%00", status: 422, code: "invalid_parameter", param: "project"},
		{name: "NUL domain on export", method: "GET", path: "/api/v1/scans/export?domain=%00", status: 422, code: "invalid_parameter", param: "domain"},
		{name: "invalid UTF-8 project on export", method: "GET", path: "/api/v1/scans/export?project=%ff%fe", status: 422, code: "invalid_parameter", param: "project"},
		{name: "NUL url on price", method: "GET", path: "/api/v1/scans/price?url=https://example.com/%00", status: 422, code: "invalid_parameter", param: "url"},
		// Cursors: shape and range.
		{name: "cursor before 4713 BC on scans", method: "GET", path: "/api/v1/scans?cursor=" + tooEarly, status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor before 4713 BC on schedules", method: "GET", path: "/api/v1/schedules?cursor=" + tooEarly, status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor before 4713 BC on deliveries", method: "GET", path: "/api/v1/scans/" + sid + "/deliveries?cursor=" + tooEarly, status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor at the int64 edge", method: "GET", path: "/api/v1/scans?cursor=" + cursorOf(strconv.FormatInt(1<<63-1, 10), id), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor at the negative int64 edge", method: "GET", path: "/api/v1/schedules?cursor=" + cursorOf("-9223372036854775808", id), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor far in the future", method: "GET", path: "/api/v1/scans?cursor=" + cursorOf("253402300800000000", id), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor with leading zeros", method: "GET", path: "/api/v1/scans?cursor=" + cursorOf("01700000000000000", id), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor with a plus sign", method: "GET", path: "/api/v1/scans?cursor=" + cursorOf("+1700000000000000", id), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor with an upper-case id", method: "GET", path: "/api/v1/scans?cursor=" + cursorOf("1700000000000000", strings.ToUpper(id)), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor with a braced id", method: "GET", path: "/api/v1/scans?cursor=" + cursorOf("1700000000000000", "{"+id+"}"), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor with NUL", method: "GET", path: "/api/v1/scans?cursor=" + base64.RawURLEncoding.EncodeToString([]byte("1\x00."+id)), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor of padded base64", method: "GET", path: "/api/v1/scans?cursor=" + base64.URLEncoding.EncodeToString([]byte("1700000000000000."+id)), status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "malformed escape in project", method: "GET", path: "/api/v1/scans?project=%zz", status: 422, code: "invalid_parameter", param: "project"},
		{name: "semicolon in a query", method: "GET", path: "/api/v1/scans/export?project=a;domain=b", status: 422, code: "invalid_parameter", param: "project"},
		{name: "cursor that is not base64", method: "GET", path: "/api/v1/scans/" + sid + "/deliveries?cursor=%%%", status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "cursor of raw NUL", method: "GET", path: "/api/v1/schedules?cursor=%00", status: 422, code: "invalid_parameter", param: "cursor"},
		// Parameter errors name the parameter.
		{name: "repeated limit", method: "GET", path: "/api/v1/scans?limit=1&limit=2", status: 422, code: "invalid_parameter", param: "limit"},
		{name: "repeated status", method: "GET", path: "/api/v1/scans?status=pending&status=failed", status: 422, code: "invalid_parameter", param: "status"},
		{name: "repeated project on export", method: "GET", path: "/api/v1/scans/export?project=a&project=b", status: 422, code: "invalid_parameter", param: "project"},
		{name: "repeated cursor", method: "GET", path: "/api/v1/schedules?cursor=a&cursor=b", status: 422, code: "invalid_parameter", param: "cursor"},
		{name: "unparseable created_after", method: "GET", path: "/api/v1/scans?created_after=yesterday", status: 422, code: "invalid_parameter", param: "created_after"},
		{name: "impossible created_before", method: "GET", path: "/api/v1/scans?created_before=2026-13-45T99:00:00Z", status: 422, code: "invalid_parameter", param: "created_before"},
		{name: "date-time without a zone on export", method: "GET", path: "/api/v1/scans/export?created_after=2026-01-02T03:04:05", status: 422, code: "invalid_parameter", param: "created_after"},
		{name: "date-time before year 1 on export", method: "GET", path: "/api/v1/scans/export?created_after=-0001-01-01T00:00:00Z", status: 422, code: "invalid_parameter", param: "created_after"},
		// Headers beyond the application's limit.
		{name: "70 kB header", method: "GET", path: "/api/v1/scans", headers: []string{"X-Padding", strings.Repeat("a", 70_000)}, status: 431, code: "request_header_too_large"},
		{name: "70 kB header without a key", method: "GET", path: "/api/v1/usage", headers: []string{"X-Padding", strings.Repeat("a", 70_000)}, status: 431, code: "request_header_too_large"},
		// Bodies the guard refuses.
		{name: "deep nesting", method: "POST", path: "/api/v1/scans", body: strings.Repeat("[", 990_000), status: 400, code: "invalid_json"},
		{name: "deep nesting in a field", method: "POST", path: "/api/v1/scans", body: `{"url":` + strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat("}", 101), status: 400, code: "invalid_json"},
		{name: "huge array", method: "POST", path: "/api/v1/schedules", body: "[" + strings.Repeat("0,", 490_000) + "0]", status: 400, code: "invalid_json"},
		{name: "duplicate keys", method: "PATCH", path: "/api/v1/scans/" + sid, body: `{"project":"a","project":"b"}`, status: 400, code: "invalid_json"},
		{name: "long string", method: "POST", path: "/api/v1/scans", body: `{"url":"https://example.com/` + strings.Repeat("a", 990_000) + `"}`, status: 422, code: "invalid_url", param: "url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			r := h.Do(t, tc.method, tc.path, org.Key, body, tc.headers...)
			r.RequireError(t, tc.status, tc.code, tc.param)
			if tc.param == "" {
				require.Nil(t, r.Error(t).Error.Param, "body: %s", r.Body)
			}
			require.NotContains(t, string(r.Body), "internal_error")
		})
	}
	// Nothing above reached the database as a write.
	var n int
	require.NoError(t, h.Store.Pool().QueryRow(t.Context(), "SELECT count(*) FROM scans WHERE org_id = $1", org.ID).Scan(&n))
	require.Equal(t, 1, n, "only the scan created on purpose exists")
	require.NotContains(t, h.Logs(), `"level":"ERROR"`, "no refused input is logged as a failure")
}

// TestRequestsNetHTTPAnswersItself covers what no ordinary client sends:
// the answers come from net/http before any handler runs, or from the body
// reader, and still carry the envelope.
func TestRequestsNetHTTPAnswersItself(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	host := strings.TrimPrefix(h.BaseURL, "http://")

	raw := func(lines ...string) []byte { return []byte(strings.Join(lines, "\r\n")) }
	for _, tc := range []struct {
		name   string
		req    []byte
		cut    bool // the client stops sending after req
		status int
		code   string
	}{
		{"missing Host", raw("GET /api/v1/scans HTTP/1.1", "X-API-Key: "+org.Key, "", ""), false, 400, "malformed_request"},
		{"missing Host outside the API", raw("GET /healthz HTTP/1.1", "", ""), false, 400, "malformed_request"},
		{"two Host headers", raw("GET /api/v1/scans HTTP/1.1", "Host: "+host, "Host: other", "X-API-Key: "+org.Key, "", ""), false, 400, "malformed_request"},
		{"malformed request line", raw("GET /api/v1/scans HTTP/1.1 extra", "Host: "+host, "", ""), false, 400, "malformed_request"},
		{"header without a colon", raw("GET /api/v1/scans HTTP/1.1", "Host: "+host, "NoColonHere", "", ""), false, 400, "malformed_request"},
		{"unknown transfer coding", raw("POST /api/v1/scans HTTP/1.1", "Host: "+host, "X-API-Key: "+org.Key, "Transfer-Encoding: gzip, chunked", "", "0", "", ""), false, 501, "malformed_request"},
		{"2 MB header", raw("GET /api/v1/scans HTTP/1.1", "Host: "+host, "X-API-Key: "+org.Key, "X-Padding: "+strings.Repeat("a", 2<<20), "", ""), false, 431, "request_header_too_large"},
		{"invalid chunk size", raw("POST /api/v1/scans HTTP/1.1", "Host: "+host, "X-API-Key: "+org.Key, "Content-Type: application/json", "Transfer-Encoding: chunked", "", "zz", `{"url":"https://example.com/"}`, "0", "", ""), false, 400, "invalid_json"},
		{"chunk longer than announced", raw("POST /api/v1/scans HTTP/1.1", "Host: "+host, "X-API-Key: "+org.Key, "Content-Type: application/json", "Transfer-Encoding: chunked", "", "3", `{"url":"https://example.com/"}`, "0", "", ""), false, 400, "invalid_json"},
		{"chunked body over the limit", raw("POST /api/v1/scans HTTP/1.1", "Host: "+host, "X-API-Key: "+org.Key, "Content-Type: application/json", "Transfer-Encoding: chunked", "", fmt.Sprintf("%x", 1_100_000), `{"url":"`+strings.Repeat("a", 1_100_000-10)+`"}`, "0", "", ""), false, 413, "request_too_large"},
		{"chunked body cut short", raw("POST /api/v1/scans HTTP/1.1", "Host: "+host, "X-API-Key: "+org.Key, "Content-Type: application/json", "Transfer-Encoding: chunked", "", "40", `{"url":"https://example.com/"}`+"\r\n"), true, 400, "invalid_json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.DoRaw(t, tc.req, tc.cut)
			r.RequireError(t, tc.status, tc.code, "")
			require.Equal(t, "application/json", r.Header.Get("Content-Type"))
			require.NotEmpty(t, r.Header.Get("X-Request-Id"))
		})
	}
	var n int
	require.NoError(t, h.Store.Pool().QueryRow(t.Context(), "SELECT count(*) FROM scans WHERE org_id = $1", org.ID).Scan(&n))
	require.Zero(t, n, "no malformed request created a scan")
}
