package triage

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestEdgeChallengedNeedsAServedBrowser: the caveat that an edge treats AI
// crawlers differently holds only when a browser was served while an AI
// crawler probe was refused; an outage or a refusal of everybody is not it.
func TestEdgeChallengedNeedsAServedBrowser(t *testing.T) {
	t.Parallel()
	resp := func(status int, header http.Header, body string) *fetch.Response {
		if header == nil {
			header = http.Header{}
		}
		return &fetch.Response{Status: status, Header: header, Body: []byte(body)}
	}
	ok := resp(200, nil, "<html><body>Welcome</body></html>")
	site := func(browser, bot *fetch.Response) *fetch.Site {
		return &fetch.Site{Bots: []fetch.BotResult{
			{Bot: fetch.ProbeBots[0], Response: browser},
			{Bot: fetch.ProbeBots[1], Response: bot},
		}}
	}
	for _, tc := range []struct {
		name    string
		site    *fetch.Site
		refused bool
	}{
		{"everyone served", site(ok, ok), false},
		{"AI crawler 403, browser served", site(ok, resp(403, nil, "Forbidden")), true},
		{"AI crawler challenged", site(ok, resp(403, http.Header{"Cf-Mitigated": {"challenge"}}, "")), true},
		{"AI crawler rate limited", site(ok, resp(429, nil, "")), true},
		{"a 503 for the crawler alone is an outage, not a refusal", site(ok, resp(503, nil, "Service Unavailable")), false},
		{"everyone refused", site(resp(403, nil, "Forbidden"), resp(403, nil, "Forbidden")), false},
		{"browser probe failed", site(&fetch.Response{Err: http.ErrHandlerTimeout}, resp(403, nil, "")), false},
		{"no probes", &fetch.Site{}, false},
	} {
		require.Equal(t, tc.refused, edgeChallenged(tc.site), tc.name)
	}
}
