package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

func ptr[T any](v T) *T { return &v }

func TestScanCreate(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()

	t.Run("HappyPathWithClient", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{
			URL: "https://WWW.Example.com:443/pricing?plan=pro#top", CallbackURL: ptr("https://hooks.example.com/geoscan"),
			Project: ptr("relaunch"),
		})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
		s := resp.JSON201
		require.Equal(t, client.ScanStatusPending, s.Status)
		require.Equal(t, "https://www.example.com/pricing?plan=pro", s.URL)
		require.Equal(t, "www.example.com", s.Domain)
		require.Equal(t, "example.com", s.BrandName)
		require.Equal(t, "relaunch", *s.Project)
		require.Equal(t, client.ScanSourceAPI, s.Source)
		require.NotNil(t, s.WebhookSecret)
		require.True(t, strings.HasPrefix(*s.WebhookSecret, "whsec_"))
		require.Nil(t, s.OverallScore)
		require.Nil(t, s.CompletedAt)

		got, err := org.Client.GetScanWithResponse(ctx, s.ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, got.StatusCode())
		require.Equal(t, s.ID, got.JSON200.ID)
		require.Nil(t, got.JSON200.WebhookSecret, "the secret is shown only once")
		require.NotContains(t, string(got.Body), "whsec_")
	})

	t.Run("NoCallbackNoSecret", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://shop.example.co.uk", BrandName: ptr("Acme Shop")})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
		require.Nil(t, resp.JSON201.WebhookSecret)
		require.Nil(t, resp.JSON201.CallbackURL)
		require.Equal(t, "https://shop.example.co.uk/", resp.JSON201.URL)
		require.Equal(t, "Acme Shop", resp.JSON201.BrandName)
	})

	t.Run("IDNHost", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://bücher.example/"})
		require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		var s api.Scan
		r.JSON(t, &s)
		require.Equal(t, "https://xn--bcher-kva.example/", s.URL)
		require.Equal(t, "bücher.example", s.BrandName)
	})

	t.Run("CallbackURLAtLimit", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		base := "https://hooks.example.com/"
		at := base + strings.Repeat("a", 2048-len(base))
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com", "callback_url": at})
		require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		r = h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com", "callback_url": at + "a"})
		r.RequireError(t, http.StatusUnprocessableEntity, "invalid_callback_url", "callback_url")
	})
}

func TestScanCreateRejectsBadTargets(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	roomyRateLimits(t, h, org)

	long := "https://example.com/" + strings.Repeat("x", 10000)
	urls := []string{
		"http://example.com/",
		"https://127.0.0.1/",
		"https://[::1]/",
		"https://169.254.169.254/latest/meta-data/",
		"https://user:pass@example.com/",
		"https://example.com@127.0.0.1/",
		long,
		"https://example.com:8443/",
		"ftp://example.com/",
		"file:///etc/passwd",
		"https://10.0.0.1/",
		"https://[::ffff:127.0.0.1]/",
		"https://2130706433/",
		"https://localhost/",
		"https://metadata.google.internal/",
		"https://inward.example.com/",
		"https://mixed.example.com/",
		"https://v6inward.example.com/",
		"https://does-not-resolve.example.org/",
		"https://①②⑦.0.0.1/",
		"not a url",
		"",
	}
	for _, u := range urls {
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": u})
		r.RequireError(t, http.StatusUnprocessableEntity, "invalid_url", "url")
		require.NotEmpty(t, r.Error(t).Error.Message)

		r = h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "callback_url": u})
		r.RequireError(t, http.StatusUnprocessableEntity, "invalid_callback_url", "callback_url")
	}

	// Nothing was created and no quota was used.
	list, err := org.Client.ListScansWithResponse(context.Background(), nil)
	require.NoError(t, err)
	require.Empty(t, list.JSON200.Data)
	usage, err := org.Client.GetUsageWithResponse(context.Background())
	require.NoError(t, err)
	require.Equal(t, 0, usage.JSON200.Used)
}

func TestScanCreateRejectsBadBodies(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	roomyRateLimits(t, h, org)

	tests := []struct {
		name   string
		body   any
		ctype  string
		status int
		code   string
		param  string
	}{
		{name: "invalid UTF-8", body: []byte("{\"url\":\"https://example.com/\xff\"}"), status: 400, code: "invalid_json"},
		{name: "truncated", body: `{"url":"https://example.com/"`, status: 400, code: "invalid_json"},
		{name: "trailing data", body: `{"url":"https://example.com/"} {}`, status: 400, code: "invalid_json"},
		{name: "duplicate key", body: `{"url":"https://example.com/","url":"https://127.0.0.1/"}`, status: 400, code: "invalid_json"},
		{name: "null body", body: `null`, status: 400, code: "invalid_json"},
		{name: "array body", body: `[]`, status: 400, code: "invalid_json"},
		{name: "empty body", body: ``, status: 400, code: "invalid_json"},
		{name: "wrong content type", body: `{"url":"https://example.com/"}`, ctype: "text/plain", status: 400, code: "invalid_json"},
		{name: "missing url", body: `{}`, status: 422, code: "missing_parameter", param: "url"},
		{name: "url null", body: `{"url":null}`, status: 422, code: "invalid_url", param: "url"},
		{name: "url number", body: `{"url":12}`, status: 422, code: "invalid_url", param: "url"},
		{name: "url object", body: `{"url":{"a":1}}`, status: 422, code: "invalid_url", param: "url"},
		{name: "huge number", body: `{"url":"https://example.com/","brand_name":1e400}`, status: 422, code: "invalid_parameter", param: "brand_name"},
		{name: "brand too long", body: fmt.Sprintf(`{"url":"https://example.com/","brand_name":%q}`, strings.Repeat("b", 201)), status: 422, code: "invalid_parameter", param: "brand_name"},
		{name: "brand blank", body: `{"url":"https://example.com/","brand_name":"   "}`, status: 422, code: "invalid_parameter", param: "brand_name"},
		{name: "unknown field", body: `{"url":"https://example.com/","colour":"red"}`, status: 422, code: "unknown_parameter", param: "colour"},
		{name: "callback 2049", body: fmt.Sprintf(`{"url":"https://example.com/","callback_url":%q}`, "https://hooks.example.com/"+strings.Repeat("c", 2049-len("https://hooks.example.com/"))), status: 422, code: "invalid_callback_url", param: "callback_url"},
		{name: "callback wrong type", body: `{"url":"https://example.com/","callback_url":true}`, status: 422, code: "invalid_callback_url", param: "callback_url"},
		{name: "tracked url http", body: `{"url":"https://example.com/","tracked_url":"http://example.com/"}`, status: 422, code: "invalid_parameter", param: "tracked_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var r apitest.Response
			if tt.ctype != "" {
				r = h.Do(t, "POST", "/api/v1/scans", org.Key, tt.body, "Content-Type", tt.ctype)
			} else {
				r = h.Do(t, "POST", "/api/v1/scans", org.Key, tt.body)
			}
			r.RequireError(t, tt.status, tt.code, tt.param)
		})
	}

	t.Run("BodyOver1MiB", func(t *testing.T) {
		t.Parallel()
		big := `{"url":"https://example.com/","brand_name":"` + strings.Repeat("x", 1<<20) + `"}`
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, big)
		r.RequireError(t, http.StatusRequestEntityTooLarge, "request_too_large", "")
	})
}

func TestScanCreateSubscriptionAndQuota(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()

	t.Run("InactiveSubscription", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "pro", false)
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
		r.RequireError(t, http.StatusPaymentRequired, "subscription_required", "")
		require.Equal(t, "billing_error", string(r.Error(t).Error.Type))
	})

	t.Run("DailyQuotaUnderConcurrency", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true) // 5 scans a day
		roomyRateLimits(t, h, org)
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			statuses = map[int]int{}
		)
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
				if err != nil {
					t.Errorf("create: %v", err)
					return
				}
				mu.Lock()
				statuses[resp.StatusCode()]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		require.Equal(t, map[int]int{201: 5, 402: 7}, statuses)

		usage, err := org.Client.GetUsageWithResponse(ctx)
		require.NoError(t, err)
		require.Equal(t, 5, usage.JSON200.Used)
		require.Equal(t, 0, usage.JSON200.Remaining)
		require.Equal(t, 5, usage.JSON200.DailyLimit)

		// Deleting a scan does not give its quota back.
		list, err := org.Client.ListScansWithResponse(ctx, nil)
		require.NoError(t, err)
		del, err := org.Client.DeleteScanWithResponse(ctx, list.JSON200.Data[0].ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusNoContent, del.StatusCode())
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
		r.RequireError(t, http.StatusPaymentRequired, "subscription_required", "")
	})

	t.Run("OverrideRaisesQuota", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		_, err := h.Store.Pool().Exec(ctx, "UPDATE organizations SET daily_scan_quota_override = 7 WHERE id = $1", org.ID)
		require.NoError(t, err)
		for range 7 {
			r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
			require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		}
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
		r.RequireError(t, http.StatusPaymentRequired, "subscription_required", "")
	})
}

func TestScanCreateIdempotency(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	body := map[string]any{"url": "https://example.com/", "callback_url": "https://hooks.example.com/x"}

	first := h.Do(t, "POST", "/api/v1/scans", org.Key, body, "Idempotency-Key", "order-42")
	require.Equal(t, http.StatusCreated, first.Status, "body: %s", first.Body)
	again := h.Do(t, "POST", "/api/v1/scans", org.Key, body, "Idempotency-Key", "order-42")
	require.Equal(t, http.StatusCreated, again.Status)
	require.JSONEq(t, string(first.Body), string(again.Body))

	other := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://www.example.com/"}, "Idempotency-Key", "order-42")
	other.RequireError(t, http.StatusUnprocessableEntity, "idempotency_key_reused", "Idempotency-Key")

	// Another organization may use the same key for its own request.
	org2 := h.NewOrg(t, "free", true)
	r := h.Do(t, "POST", "/api/v1/scans", org2.Key, body, "Idempotency-Key", "order-42")
	require.Equal(t, http.StatusCreated, r.Status)
	require.NotEqual(t, string(first.Body), string(r.Body))

	usage, err := org.Client.GetUsageWithResponse(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, usage.JSON200.Used, "a replay uses no quota")
}

func TestScanReadIsolation(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	a := h.NewOrg(t, "free", true)
	b := h.NewOrg(t, "free", true)

	created, err := a.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := created.JSON201.ID

	// A second key of the same organization sees the scan.
	key2, _ := h.NewKey(t, a.ID, "second")
	r := h.Do(t, "GET", "/api/v1/scans/"+id.String(), key2, nil)
	require.Equal(t, http.StatusOK, r.Status)

	// Another organization gets exactly what a missing id gets.
	for _, path := range []string{"", "/report", "/checks", "/checks/robots_txt_present", "/pdf", "/triage"} {
		theirs := h.Do(t, "GET", "/api/v1/scans/"+id.String()+path, b.Key, nil)
		missing := h.Do(t, "GET", "/api/v1/scans/"+uuid.NewString()+path, b.Key, nil)
		theirs.RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
		missing.RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
	}
	h.Do(t, "PATCH", "/api/v1/scans/"+id.String(), b.Key, map[string]any{"project": "x"}).RequireError(t, 404, "scan_not_found", "scan_id")
	h.Do(t, "DELETE", "/api/v1/scans/"+id.String(), b.Key, nil).RequireError(t, 404, "scan_not_found", "scan_id")
	list := h.Do(t, "GET", "/api/v1/scans", b.Key, nil)
	require.Equal(t, http.StatusOK, list.Status)
	require.NotContains(t, string(list.Body), id.String())

	// The scan is untouched.
	got, err := a.Client.GetScanWithResponse(ctx, id)
	require.NoError(t, err)
	require.Nil(t, got.JSON200.Project)

	// A malformed id is the request's mistake, not a missing scan.
	h.Do(t, "GET", "/api/v1/scans/not-a-uuid", a.Key, nil).RequireError(t, 422, "invalid_parameter", "scan_id")
}

func TestScanList(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	var ids []uuid.UUID
	for i := range 25 {
		body := client.ScanCreateRequest{URL: "https://example.com/"}
		switch {
		case i%5 == 0:
			body.URL = "https://shop.example.co.uk/"
		case i%2 == 0:
			body.URL = "https://www.example.com/"
			body.Project = ptr("alpha")
		}
		resp, err := org.Client.CreateScanWithResponse(ctx, nil, body)
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
		ids = append(ids, resp.JSON201.ID)
	}

	t.Run("PagesNewestFirst", func(t *testing.T) {
		t.Parallel()
		var seen []uuid.UUID
		var cursor *string
		pages := 0
		for {
			resp, err := org.Client.ListScansWithResponse(ctx, &client.ListScansParams{Limit: ptr(10), Cursor: cursor})
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode())
			pages++
			for _, s := range resp.JSON200.Data {
				seen = append(seen, s.ID)
			}
			if !resp.JSON200.HasMore {
				require.Nil(t, resp.JSON200.NextCursor)
				break
			}
			cursor = resp.JSON200.NextCursor
		}
		require.Equal(t, 3, pages)
		require.Len(t, seen, 25)
		for i := range seen {
			require.Equal(t, ids[len(ids)-1-i], seen[i], "newest first, no gaps or repeats")
		}
	})

	t.Run("Filters", func(t *testing.T) {
		t.Parallel()
		count := func(q string) int {
			r := h.Do(t, "GET", "/api/v1/scans?limit=100&"+q, org.Key, nil)
			require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
			var l api.ScanList
			r.JSON(t, &l)
			return len(l.Data)
		}
		require.Equal(t, 25, count("status=pending"))
		require.Equal(t, 0, count("status=completed"))
		require.Equal(t, 10, count("project=alpha"))
		require.Equal(t, 5, count("domain=example.co.uk"))
		require.Equal(t, 5, count("domain=SHOP.example.co.uk"))
		require.Equal(t, 20, count("domain=example.com"))
		require.Equal(t, 10, count("url=https://WWW.example.com"))
		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		require.Equal(t, 0, count("created_after="+future))
		require.Equal(t, 25, count("created_before="+future))
	})

	t.Run("BadParameters", func(t *testing.T) {
		t.Parallel()
		h.Do(t, "GET", "/api/v1/scans?limit=0", org.Key, nil).RequireError(t, 422, "invalid_parameter", "limit")
		h.Do(t, "GET", "/api/v1/scans?limit=101", org.Key, nil).RequireError(t, 422, "invalid_parameter", "limit")
		h.Do(t, "GET", "/api/v1/scans?limit=ten", org.Key, nil).RequireError(t, 422, "invalid_parameter", "limit")
		h.Do(t, "GET", "/api/v1/scans?cursor=bogus", org.Key, nil).RequireError(t, 422, "invalid_parameter", "cursor")
		h.Do(t, "GET", "/api/v1/scans?status=done", org.Key, nil).RequireError(t, 422, "invalid_parameter", "status")
		h.Do(t, "GET", "/api/v1/scans?created_after=yesterday", org.Key, nil).RequireError(t, 422, "invalid_parameter", "created_after")
	})
}

func TestScanUpdate(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := created.JSON201.ID
	path := "/api/v1/scans/" + id.String()

	r := h.Do(t, "PATCH", path, org.Key, map[string]any{"project": "q4", "tracked_url": "https://Example.com/pricing#x"})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var s api.Scan
	r.JSON(t, &s)
	require.Equal(t, "q4", *s.Project)
	require.Equal(t, "https://example.com/pricing", *s.TrackedURL)

	r = h.Do(t, "PATCH", path, org.Key, map[string]any{"tracked_url": nil})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	r.JSON(t, &s)
	require.Nil(t, s.TrackedURL)
	require.Equal(t, "q4", *s.Project, "fields left out keep their value")

	h.Do(t, "PATCH", path, org.Key, map[string]any{}).RequireError(t, 422, "invalid_parameter", "")
	h.Do(t, "PATCH", path, org.Key, map[string]any{"url": "https://x.example/"}).RequireError(t, 422, "unknown_parameter", "url")
	h.Do(t, "PATCH", path, org.Key, map[string]any{"project": ""}).RequireError(t, 422, "invalid_parameter", "project")
	h.Do(t, "PATCH", path, org.Key, map[string]any{"tracked_url": "ftp://x"}).RequireError(t, 422, "invalid_parameter", "tracked_url")
	h.Do(t, "PATCH", "/api/v1/scans/"+uuid.NewString(), org.Key, map[string]any{"project": "x"}).RequireError(t, 404, "scan_not_found", "scan_id")
}

func TestScanDelete(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := created.JSON201.ID
	completeScan(t, h, id)

	del, err := org.Client.DeleteScanWithResponse(ctx, id)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, del.StatusCode())
	require.Empty(t, del.Body)

	for _, table := range []string{"scans WHERE id", "reports WHERE scan_id", "triage_dossiers WHERE scan_id", "check_results WHERE scan_id"} {
		var n int
		require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT count(*) FROM "+table+" = $1", id).Scan(&n))
		require.Zero(t, n, table)
	}
	h.Do(t, "GET", "/api/v1/scans/"+id.String(), org.Key, nil).RequireError(t, 404, "scan_not_found", "scan_id")
	h.Do(t, "DELETE", "/api/v1/scans/"+id.String(), org.Key, nil).RequireError(t, 404, "scan_not_found", "scan_id")
}

func TestScanResultsBeforeCompletion(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	base := "/api/v1/scans/" + created.JSON201.ID.String()

	for _, p := range []string{"/report", "/report?audience=engineering", "/checks", "/checks/robots_txt_present", "/pdf"} {
		h.Do(t, "GET", base+p, org.Key, nil).RequireError(t, 400, "scan_not_complete", "scan_id")
	}
	h.Do(t, "GET", base+"/triage", org.Key, nil).RequireError(t, 404, "triage_not_available", "scan_id")
	h.Do(t, "GET", base+"/report?audience=board", org.Key, nil).RequireError(t, 422, "invalid_parameter", "audience")
	other := uuid.NewString()
	h.Do(t, "GET", "/api/v1/scans/compare?base="+created.JSON201.ID.String()+"&target="+other, org.Key, nil).RequireError(t, 400, "scan_not_complete", "base")

	// The messages say where the scan stands as a person would: never
	// "Scan … is failed".
	id := created.JSON201.ID
	message := func(path string) string {
		t.Helper()
		return h.Do(t, "GET", base+path, org.Key, nil).Error(t).Error.Message
	}
	require.Equal(t, "Scan "+id.String()+" has not completed yet; it is waiting to run. Its results are available when it completes.", message("/report"))
	require.Equal(t, "Scan "+id.String()+" has not completed yet; it is waiting to run. Its triage dossier is available when it completes.", message("/triage"))
	_, err = h.Store.StartScan(ctx, id)
	require.NoError(t, err)
	require.Equal(t, "Scan "+id.String()+" has not completed yet; it is running. Its results are available when it completes.", message("/checks"))
	_, err = h.Store.FailScan(ctx, id, "dns_failure", "The homepage could not be fetched.")
	require.NoError(t, err)
	require.Equal(t, "Scan "+id.String()+" failed, so it has no results.", message("/pdf"))
	require.Equal(t, "Scan "+id.String()+" failed, so it has no results.", message("/triage"))
	h.Do(t, "GET", base+"/report", org.Key, nil).RequireError(t, 400, "scan_not_complete", "scan_id")
	h.Do(t, "GET", base+"/triage", org.Key, nil).RequireError(t, 404, "triage_not_available", "scan_id")
}

// TestUnresolvableHostsRefusedInEveryMode: a URL whose host does not
// resolve, through the resolver the scanner would fetch with, is refused
// when it comes in (422, nothing created, no quota used) in production and
// with the fixture settings alike; production still refuses loopback
// targets, the fixture settings accept them.
func TestUnresolvableHostsRefusedInEveryMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts apitest.Options
		// private is a resolvable URL on a loopback address.
		private       string
		acceptPrivate bool
	}{
		{"Production", apitest.Options{Getenv: map[string]string{"GEOSCAN_ENV": "production"}}, "https://inward.example.com/", false},
		{"TestDefaults", apitest.Options{}, "https://inward.example.com/", false},
		{"FixtureSettingsTestResolver", apitest.Options{AllowPrivateTargets: true}, "https://inward.example.com:8443/", true},
		{"FixtureSettingsResolve", apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{
			"GEOSCAN_RESOLVE": "brokenbay.test=127.0.0.1,example.com=93.184.216.34,hooks.example.com=93.184.216.36",
		}}, "https://brokenbay.test:8443/", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := start(t, tc.opts)
			org := h.NewOrg(t, "free", true)
			roomyRateLimits(t, h, org)

			for _, u := range []string{"https://does-not-resolve.example.org/", "https://nowhere.test:8443/"} {
				if !tc.acceptPrivate && strings.Contains(u, ":8443") {
					continue // refused for its port before any lookup
				}
				r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": u})
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_url", "url")
				require.Contains(t, r.Error(t).Error.Message, "could not be resolved")

				r = h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "callback_url": u})
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_callback_url", "callback_url")
				require.Contains(t, r.Error(t).Error.Message, "could not be resolved")

				r = h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": u})
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_url", "url")

				r = h.Do(t, "GET", "/api/v1/scans/price?url="+url.QueryEscape(u), org.Key, nil)
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_url", "url")

				r = h.Do(t, "POST", "/api/v1/webhooks/test", org.Key, map[string]any{"url": u})
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_callback_url", "url")
			}

			usage, err := org.Client.GetUsageWithResponse(context.Background())
			require.NoError(t, err)
			require.Equal(t, 0, usage.JSON200.Used, "a refused URL uses no quota")
			list, err := org.Client.ListSchedulesWithResponse(context.Background(), nil)
			require.NoError(t, err)
			require.Empty(t, list.JSON200.Data)

			r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": tc.private})
			if tc.acceptPrivate {
				require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
			} else {
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_url", "url")
			}
			r = h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "callback_url": "https://hooks.example.com/in"})
			require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		})
	}
}
