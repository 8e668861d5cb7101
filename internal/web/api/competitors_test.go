package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
)

// TestScanCompetitors: a scan and a schedule name competitors' sites,
// checked like the scan's URL, normalized, capped by the plan; the scan
// shows them, in its list too, and a schedule's scans take them over.
func TestScanCompetitors(t *testing.T) {
	t.Parallel()
	h := start(t, startOptions(map[string][]string{
		"rival.example.com": {"93.184.216.40"}, "other.example.net": {"93.184.216.41"},
	}))
	pro := h.NewOrg(t, "pro", true)
	free := h.NewOrg(t, "free", true)
	roomyRateLimits(t, h, pro)

	r := h.Do(t, "POST", "/api/v1/scans", pro.Key, map[string]any{
		"url": "https://www.example.com/", "competitors": []string{"https://RIVAL.example.com", "https://other.example.net/products"},
	})
	require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
	var scan api.Scan
	r.JSON(t, &scan)
	require.Equal(t, []string{"https://rival.example.com/", "https://other.example.net/products"}, scan.Competitors)

	g := h.Do(t, "GET", "/api/v1/scans/"+scan.ID.String(), pro.Key, nil)
	require.Equal(t, http.StatusOK, g.Status)
	var got api.Scan
	g.JSON(t, &got)
	require.Equal(t, scan.Competitors, got.Competitors)

	plain := h.Do(t, "POST", "/api/v1/scans", pro.Key, map[string]any{"url": "https://www.example.com/"})
	require.Equal(t, http.StatusCreated, plain.Status, "body: %s", plain.Body)
	require.Contains(t, string(plain.Body), `"competitors":[]`, "none is an empty list, never null")

	for _, tc := range []struct {
		body        []string
		code, param string
	}{
		{[]string{"https://www.example.com/pricing"}, "invalid_url", "competitors[0]"},
		{[]string{"https://rival.example.com/", "https://rival.example.com/x"}, "invalid_url", "competitors[1]"},
		{[]string{"http://rival.example.com/"}, "invalid_url", "competitors[0]"},
		{[]string{"https://inward.example.com/"}, "invalid_url", "competitors[0]"},
		{[]string{"https://rival.example.com/", "not a url"}, "invalid_url", "competitors[1]"},
	} {
		h.Do(t, "POST", "/api/v1/scans", pro.Key, map[string]any{"url": "https://www.example.com/", "competitors": tc.body}).
			RequireError(t, http.StatusUnprocessableEntity, tc.code, tc.param)
	}
	// More than the plan's five: refused before any of them is looked up.
	six := []string{
		"https://rival.example.com/", "https://other.example.net/", "https://a.example.com/",
		"https://b.example.com/", "https://c.example.com/", "https://d.example.com/",
	}
	h.Do(t, "POST", "/api/v1/scans", pro.Key, map[string]any{"url": "https://www.example.com/", "competitors": six}).
		RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "competitors")

	// The free plan allows one.
	h.Do(t, "POST", "/api/v1/scans", free.Key, map[string]any{
		"url": "https://www.example.com/", "competitors": []string{"https://rival.example.com/", "https://other.example.net/"},
	}).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "competitors")

	// Schedules keep them, replace them, remove them.
	s := h.Do(t, "POST", "/api/v1/schedules", pro.Key, map[string]any{
		"url": "https://www.example.com/", "competitors": []string{"https://rival.example.com/"},
	})
	require.Equal(t, http.StatusCreated, s.Status, "body: %s", s.Body)
	var sched api.Schedule
	s.JSON(t, &sched)
	require.Equal(t, []string{"https://rival.example.com/"}, sched.Competitors)
	u := h.Do(t, "PATCH", "/api/v1/schedules/"+sched.ID.String(), pro.Key, map[string]any{"competitors": []string{"https://other.example.net/"}})
	require.Equal(t, http.StatusOK, u.Status, "body: %s", u.Body)
	u.JSON(t, &sched)
	require.Equal(t, []string{"https://other.example.net/"}, sched.Competitors)
	h.Do(t, "PATCH", "/api/v1/schedules/"+sched.ID.String(), pro.Key, map[string]any{"competitors": []string{"https://www.example.com/"}}).
		RequireError(t, http.StatusUnprocessableEntity, "invalid_url", "competitors[0]")
	u = h.Do(t, "PATCH", "/api/v1/schedules/"+sched.ID.String(), pro.Key, map[string]any{"competitors": []string{}})
	require.Equal(t, http.StatusOK, u.Status, "body: %s", u.Body)
	u.JSON(t, &sched)
	require.Empty(t, sched.Competitors)
	h.Do(t, "POST", "/api/v1/schedules", free.Key, map[string]any{
		"url": "https://www.example.com/", "competitors": []string{"https://rival.example.com/", "https://other.example.net/"},
	}).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "competitors")
}
