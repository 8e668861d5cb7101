package crawlerlog_test

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

const (
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	amazonbotUA = "Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)"
)

func clfLine(ip, path, ua string, status int) string {
	return ip + ` - - [01/Sep/2026:10:00:00 +0000] "GET ` + path + ` HTTP/1.1" ` + strconv.Itoa(status) + ` 100 "-" "` + ua + `"`
}

func analyzeString(t *testing.T, log string, opts crawlerlog.Options) crawlerlog.Result {
	t.Helper()
	res, err := crawlerlog.Analyze(context.Background(), strings.NewReader(log), opts)
	require.NoError(t, err)
	return res
}

// TestVerifyReverseDNS covers the outcomes of forward-confirmed reverse
// DNS: confirmed, refuted, not asked (no resolver, budget spent) and a DNS
// error, which is never a failure.
func TestVerifyReverseDNS(t *testing.T) {
	t.Parallel()
	log := strings.Join([]string{
		clfLine("52.70.240.171", "/a", amazonbotUA, 200),
		clfLine("52.70.240.171", "/b", amazonbotUA, 200), // cached: no second lookup
		clfLine("198.51.100.7", "/c", amazonbotUA, 200),  // PTR name outside Amazon's domain
		clfLine("198.51.100.8", "/d", amazonbotUA, 200),  // no PTR record
		clfLine("198.51.100.9", "/e", amazonbotUA, 200),  // server failure
	}, "\n")
	tests := []struct {
		name     string
		resolver func() *fakeResolver
		max      int
		want     [3]int64 // verified, failed, not checked
		lookups  int
	}{
		{name: "no resolver", want: [3]int64{0, 0, 5}},
		{name: "resolver", resolver: func() *fakeResolver {
			r := amazonResolver()
			r.fail = map[string]bool{"198.51.100.9": true}
			return r
		}, want: [3]int64{2, 2, 1}, lookups: 4},
		{name: "budget of two", resolver: amazonResolver, max: 2, want: [3]int64{2, 1, 2}, lookups: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := crawlerlog.Options{MaxLookups: tt.max}
			if tt.resolver != nil {
				opts.Resolver = tt.resolver()
			}
			res := analyzeString(t, log, opts)
			b := botByToken(t, res, "Amazonbot")
			require.Equal(t, crawlerlog.MethodReverseDNS, b.Verification.Method)
			require.Equal(t, tt.want, [3]int64{b.VerifiedHits, b.Verification.FailedHits, b.Verification.NotCheckedHits})
			require.Equal(t, b.VerifiedHits, b.Verification.ReverseDNSHits)
			require.Equal(t, tt.lookups, res.Lookups)
		})
	}
}

// TestVerifyListThenDNS: an address missing from Google's embedded list
// is confirmed by reverse DNS (the list may be older than Google's), a
// googleusercontent.com name (any Google Cloud machine) never is, and
// without DNS the list's answer stands.
func TestVerifyListThenDNS(t *testing.T) {
	t.Parallel()
	r := &fakeResolver{
		ptr: map[string][]string{
			"198.51.100.1": {"crawl-198-51-100-1.googlebot.com."},
			"198.51.100.2": {"2.100.51.198.bc.googleusercontent.com."},
		},
		forward: map[string][]string{
			"crawl-198-51-100-1.googlebot.com":      {"198.51.100.1"},
			"2.100.51.198.bc.googleusercontent.com": {"198.51.100.2"},
		},
	}
	log := clfLine("198.51.100.1", "/", googlebotUA, 200) + "\n" + clfLine("198.51.100.2", "/", googlebotUA, 200) + "\n" +
		clfLine("66.249.66.1", "/", googlebotUA, 200)
	res := analyzeString(t, log, crawlerlog.Options{Resolver: r})
	g := botByToken(t, res, "Googlebot")
	require.Equal(t, [4]int64{2, 1, 1, 0}, [4]int64{g.VerifiedHits, g.Verification.ReverseDNSHits, g.Verification.FailedHits, g.Verification.NotCheckedHits})
	require.Equal(t, 2, res.Lookups, "an address in the list needs no lookup")

	g = botByToken(t, analyzeString(t, log, crawlerlog.Options{}), "Googlebot")
	require.Equal(t, [3]int64{1, 2, 0}, [3]int64{g.VerifiedHits, g.Verification.FailedHits, g.Verification.NotCheckedHits})
}

// TestVerifyCustomRanges: Options.Ranges replaces the embedded lists; a
// bot whose list is missing is not checked, never failed.
func TestVerifyCustomRanges(t *testing.T) {
	t.Parallel()
	ranges := crawlerlog.NewRanges(map[string][]netip.Prefix{
		"openai-gptbot": {netip.MustParsePrefix("192.0.2.0/28")},
	})
	gpt := "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	log := strings.Join([]string{
		clfLine("192.0.2.5", "/", gpt, 200),
		clfLine("192.0.2.16", "/", gpt, 200),
		clfLine("20.171.207.33", "/", gpt, 200), // in OpenAI's real list, not in this one
		clfLine("66.249.66.1", "/", googlebotUA, 200),
	}, "\n")
	res := analyzeString(t, log, crawlerlog.Options{Ranges: ranges})
	b := botByToken(t, res, "GPTBot")
	require.Equal(t, [3]int64{1, 2, 0}, [3]int64{b.VerifiedHits, b.Verification.FailedHits, b.Verification.NotCheckedHits})
	g := botByToken(t, res, "Googlebot")
	require.Equal(t, crawlerlog.MethodReverseDNS, g.Verification.Method, "no list, so only reverse DNS is left")
	require.Equal(t, int64(1), g.Verification.NotCheckedHits)
}

// TestTokenMatching: a token is a whole word of the user agent, in any
// case; the first token named wins.
func TestTokenMatching(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ua, want string
	}{
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"},
		{"compatible; OAI-SearchBot/1.0", "OAI-SearchBot"},
		{"Googlebot", "Googlebot"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "Bingbot"},
		{"GOOGLEBOT/2.1", "Googlebot"},
		{"Googlebot-Image/1.0", ""},
		{"NotGPTBot/1.0", ""},
		{"Mozilla/5.0 (Applebot-Extended)", "Applebot-Extended"},
		{"Claude-SearchBot/1.0 ClaudeBot/1.0", "Claude-SearchBot"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36", ""},
	}
	for _, tt := range tests {
		res := analyzeString(t, clfLine("192.0.2.1", "/", tt.ua, 200), crawlerlog.Options{})
		if tt.want == "" {
			require.Empty(t, res.Bots, tt.ua)
			require.Equal(t, int64(1), res.OtherHits, tt.ua)
			continue
		}
		require.Len(t, res.Bots, 1, tt.ua)
		require.Equal(t, tt.want, res.Bots[0].Token, tt.ua)
	}
}

// TestEncodedUserAgents: W3C logs URL-encode the user agent, other formats
// do not: the same bytes name a token in one and not in the other.
func TestEncodedUserAgents(t *testing.T) {
	t.Parallel()
	log := clfLine("66.249.66.1", "/", "Google%62ot/2.1", 200) + "\n" +
		"#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)\n" +
		"2026-09-01 10:00:00 66.249.66.1 GET / 200 Google%62ot/2.1\n" +
		clfLine("66.249.66.1", "/", "Google%62ot/2.1", 200) + "\n"
	res := analyzeString(t, log, crawlerlog.Options{})
	require.Equal(t, int64(2), res.OtherHits)
	require.Equal(t, int64(1), botByToken(t, res, "Googlebot").VerifiedHits)
}

// TestVerifyDNSDown: a resolver that answers nothing but errors is given
// up after a few lookups in a row, so a DNS outage cannot hold an
// analysis for the whole lookup budget; the hits of a crawler verified by
// DNS alone are not checked, never failed.
func TestVerifyDNSDown(t *testing.T) {
	t.Parallel()
	fail := map[string]bool{}
	var lines []string
	for i := range 40 {
		ip := fmt.Sprintf("198.51.100.%d", i+1)
		fail[ip] = true
		lines = append(lines, clfLine(ip, "/", amazonbotUA, 200))
	}
	r := &fakeResolver{fail: fail}
	res := analyzeString(t, strings.Join(lines, "\n"), crawlerlog.Options{Resolver: r, Workers: 1})
	g := botByToken(t, res, "Amazonbot")
	require.EqualValues(t, 40, g.Hits)
	require.Zero(t, g.VerifiedHits)
	require.Zero(t, g.Verification.FailedHits, "DNS that does not answer refutes nothing")
	require.EqualValues(t, 40, g.Verification.NotCheckedHits)
	require.Equal(t, 5, r.calls, "five failures in a row, then no more lookups")
}
