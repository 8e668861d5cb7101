package crawlerlog_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// fakeResolver answers reverse and forward lookups from maps; an address
// or name it does not know is "not found", one in fail is a server error.
type fakeResolver struct {
	ptr     map[string][]string
	forward map[string][]string
	fail    map[string]bool
	calls   int
}

func (f *fakeResolver) LookupAddr(_ context.Context, addr string) ([]string, error) {
	f.calls++
	if f.fail[addr] {
		return nil, &net.DNSError{Err: "server misbehaving", Name: addr, IsTemporary: true}
	}
	if names, ok := f.ptr[addr]; ok {
		return names, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
}

func (f *fakeResolver) LookupHost(_ context.Context, host string) ([]string, error) {
	f.calls++
	if f.fail[host] {
		return nil, &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}
	}
	if addrs, ok := f.forward[host]; ok {
		return addrs, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// amazonResolver knows one real Amazonbot address and a forger whose PTR
// name claims Amazon's domain without resolving back.
func amazonResolver() *fakeResolver {
	return &fakeResolver{
		ptr: map[string][]string{
			"52.70.240.171": {"52-70-240-171.crawl.amazonbot.amazon."},
			"198.51.100.7":  {"crawl.amazonbot.amazon.attacker.example."},
		},
		forward: map[string][]string{
			"52-70-240-171.crawl.amazonbot.amazon": {"52.70.240.171"},
		},
	}
}

// summary is the part of a Result a table test pins.
type summary struct {
	Lines, Parsed, Unparsed, OtherHost, OtherHits int64
	Reasons                                       map[string]int64
	Formats                                       map[string]int64
	// Bots: token → hits verified failed not_checked method
	Bots map[string]string
}

func summarize(res crawlerlog.Result) summary {
	s := summary{
		Lines: res.Lines, Parsed: res.ParsedLines, Unparsed: res.UnparsedLines,
		OtherHost: res.OtherHostLines, OtherHits: res.OtherHits,
		Reasons: map[string]int64{}, Formats: res.Formats, Bots: map[string]string{},
	}
	for _, u := range res.Unparsed {
		s.Reasons[u.Reason] = u.Count
	}
	for _, b := range res.Bots {
		s.Bots[b.Token] = fmt.Sprintf("%d %d %d %d %s", b.Hits, b.VerifiedHits, b.Verification.FailedHits, b.Verification.NotCheckedHits, b.Verification.Method)
	}
	return s
}

func analyzeFile(t *testing.T, name string, opts crawlerlog.Options) crawlerlog.Result {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	res, err := crawlerlog.Analyze(context.Background(), f, opts)
	require.NoError(t, err)
	return res
}

// TestAnalyzeFormats reads one small log per format: real-looking lines
// of verified crawlers, crawlers from addresses outside their operator's
// ranges, forged user agents behind a forwarded-for header, browsers and
// broken lines.
func TestAnalyzeFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file     string
		resolver crawlerlog.Resolver
		want     summary
	}{
		{file: "combined.log", want: summary{
			Lines: 15, Parsed: 15, OtherHits: 3, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatCombined: 15},
			Bots: map[string]string{
				// IPv4, IPv6 and IPv4-mapped addresses of Google's list; one
				// address outside it; one forger whose X-Forwarded-For names
				// a Google address.
				"Googlebot":     "5 3 2 0 ip_ranges",
				"OAI-SearchBot": "4 3 1 0 ip_ranges",
				"GPTBot":        "1 1 0 0 ip_ranges",
				"PerplexityBot": "1 1 0 0 ip_ranges",
				"Bytespider":    "1 0 0 1 none",
			},
		}},
		{file: "common.log", want: summary{
			Lines: 3, Parsed: 3, OtherHits: 3, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatCommon: 3}, Bots: map[string]string{},
		}},
		{file: "vhost_combined.log", want: summary{
			Lines: 4, Parsed: 4, OtherHost: 1, OtherHits: 1, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatVhostCombined: 4},
			Bots:    map[string]string{"Bingbot": "1 1 0 0 ip_ranges", "ClaudeBot": "1 1 0 0 ip_ranges"},
		}},
		{file: "nginx_host.log", resolver: amazonResolver(), want: summary{
			Lines: 4, Parsed: 4, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatVhostCombined: 4},
			Bots: map[string]string{
				// One address confirmed by reverse DNS, one whose PTR name
				// only contains Amazon's domain.
				"Amazonbot":    "2 1 1 0 reverse_dns",
				"ChatGPT-User": "1 1 0 0 ip_ranges",
				"Applebot":     "1 1 0 0 ip_ranges",
			},
		}},
		{file: "cloudfront.log", want: summary{
			Lines: 5, Parsed: 5, OtherHost: 1, OtherHits: 1, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatCloudFront: 5},
			Bots: map[string]string{
				"Googlebot":     "1 1 0 0 ip_ranges",
				"OAI-SearchBot": "1 1 0 0 ip_ranges", // user agent encoded twice
				"GPTBot":        "1 0 1 0 ip_ranges", // X-Forwarded-For is not trusted
			},
		}},
		{file: "iis.log", want: summary{
			Lines: 2, Parsed: 2, OtherHits: 1, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatW3C: 2},
			Bots:    map[string]string{"Bingbot": "1 1 0 0 ip_ranges"},
		}},
		{file: "cloudflare.jsonl", want: summary{
			Lines: 5, Parsed: 3, Unparsed: 2, OtherHits: 1,
			Reasons: map[string]int64{crawlerlog.ReasonBadClientIP: 1, crawlerlog.ReasonBadJSON: 1},
			Formats: map[string]int64{crawlerlog.FormatCloudflare: 3},
			Bots:    map[string]string{"Googlebot": "1 1 0 0 ip_ranges", "OAI-SearchBot": "1 1 0 0 ip_ranges"},
		}},
		{file: "cloudfront_realtime.jsonl", want: summary{
			Lines: 2, Parsed: 2, OtherHits: 1, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatCloudFrontRT: 2},
			Bots:    map[string]string{"Perplexity-User": "1 1 0 0 ip_ranges"},
		}},
		{file: "fastly.jsonl", want: summary{
			Lines: 3, Parsed: 3, OtherHits: 1, Reasons: map[string]int64{},
			Formats: map[string]int64{crawlerlog.FormatFastly: 3},
			Bots:    map[string]string{"CCBot": "1 1 0 0 ip_ranges", "Applebot": "1 1 0 0 ip_ranges"},
		}},
		{file: "vercel.jsonl", want: summary{
			Lines: 3, Parsed: 2, Unparsed: 1,
			Reasons: map[string]int64{crawlerlog.ReasonNotARequest: 1},
			Formats: map[string]int64{crawlerlog.FormatVercel: 2},
			Bots:    map[string]string{"Googlebot": "1 1 0 0 ip_ranges", "ClaudeBot": "1 1 0 0 ip_ranges"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			res := analyzeFile(t, tt.file, crawlerlog.Options{Domain: "www.example.com", Resolver: tt.resolver})
			require.Equal(t, tt.want, summarize(res))
		})
	}
}

func botByToken(t *testing.T, res crawlerlog.Result, token string) crawlerlog.Bot {
	t.Helper()
	for _, b := range res.Bots {
		if b.Token == token {
			return b
		}
	}
	require.Failf(t, "bot not found", "no %s in %v", token, res.Bots)
	return crawlerlog.Bot{}
}

// TestAnalyzeDetails pins what one bot's entry holds: times in UTC
// whatever the line's zone, statuses, days, pages without their query,
// refusals of hits that did not fail verification, the search path set.
func TestAnalyzeDetails(t *testing.T) {
	t.Parallel()
	res := analyzeFile(t, "combined.log", crawlerlog.Options{Domain: "www.example.com"})
	require.Equal(t, "2026-08-01T10:00:00Z", res.FirstSeen)
	require.Equal(t, "2026-08-03T08:10:00Z", res.LastSeen)
	require.Equal(t, []string{"/blog/ai-search", "/docs/", "/pricing"}, res.SearchPaths)
	require.False(t, res.SearchPathsTruncated)
	require.Equal(t, "Googlebot", res.Bots[0].Token, "most hits first")

	g := botByToken(t, res, "Googlebot")
	require.Equal(t, "Google", g.Owner)
	require.Equal(t, "search", g.Role)
	require.Equal(t, int64(2), g.UnverifiedHits)
	require.Equal(t, map[int]int64{200: 2, 304: 1, 403: 1, 404: 1}, g.Statuses)
	require.Equal(t, []crawlerlog.Day{{Date: "2026-08-01", Hits: 5, VerifiedHits: 3}}, g.Days)
	require.Equal(t, "2026-08-01T10:00:00Z", g.FirstSeen, "12:00 +0200 is 10:00 UTC")
	require.Equal(t, "2026-08-01T10:06:00Z", g.LastSeen)
	require.Equal(t, crawlerlog.Page{Path: "/docs/", Hits: 2, VerifiedHits: 2, Statuses: map[int]int64{200: 1, 304: 1}}, g.Pages[0])
	require.Len(t, g.Pages, 4)
	require.Equal(t, 4, g.DistinctPaths)
	require.False(t, g.PagesTruncated)
	require.Empty(t, g.Refused, "the forged Googlebot's 403 is not a refusal of Googlebot")

	o := botByToken(t, res, "OAI-SearchBot")
	require.Equal(t, []crawlerlog.Page{{Path: "/pricing", Hits: 2, VerifiedHits: 2, Statuses: map[int]int64{403: 2}}}, o.Refused)
	require.Equal(t, crawlerlog.Page{Path: "/pricing", Hits: 3, VerifiedHits: 2, Statuses: map[int]int64{403: 3}}, o.Pages[0])
	require.Equal(t, "2026-08-02T14:00:00Z", o.FirstSeen, "09:00 -0500 is 14:00 UTC")

	names := map[string]bool{}
	for _, l := range res.RangeLists {
		names[l.Name] = l.Present
	}
	require.True(t, names["openai-searchbot"])
	require.Contains(t, names, "duckduckgo-duckassistbot")
	require.False(t, names["duckduckgo-duckassistbot"], "absent lists are listed as absent")
}

// TestAnalyzeDomain: without a domain every host is analysed.
func TestAnalyzeDomain(t *testing.T) {
	t.Parallel()
	res := analyzeFile(t, "vhost_combined.log", crawlerlog.Options{})
	require.Zero(t, res.OtherHostLines)
	require.Equal(t, int64(2), botByToken(t, res, "Bingbot").Hits)

	res = analyzeFile(t, "vhost_combined.log", crawlerlog.Options{Domain: "shop.example.net"})
	require.Equal(t, int64(3), res.OtherHostLines)
	require.Equal(t, int64(1), botByToken(t, res, "Bingbot").Hits)
}
