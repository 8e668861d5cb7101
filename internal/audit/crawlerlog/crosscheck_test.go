package crawlerlog_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

const oaiSearchBotUA = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot"

// wafLog: OpenAI's search crawler, from OpenAI's addresses, gets 403 on
// /pricing and /docs/ and 429 on /blog/; a forger gets 403 on /pricing;
// GPTBot gets 403 on /private/.
func wafLog() string {
	return strings.Join([]string{
		clfLine("74.7.228.5", "/pricing", oaiSearchBotUA, 403),
		clfLine("74.7.228.6", "/pricing?plan=pro", oaiSearchBotUA, 403),
		clfLine("74.7.228.6", "/docs/", oaiSearchBotUA, 403),
		clfLine("74.7.228.7", "/blog/", oaiSearchBotUA, 429),
		clfLine("74.7.228.7", "/about", oaiSearchBotUA, 200),
		clfLine("203.0.113.50", "/pricing", oaiSearchBotUA, 403),
		clfLine("20.171.207.33", "/private/x", "GPTBot/1.2", 403),
		clfLine("20.171.207.33", "/about", "Google-Extended", 403),
	}, "\n")
}

// robotsAllowingSearch allows OAI-SearchBot everything but /docs/ and
// disallows GPTBot /private/.
const robotsAllowingSearch = `User-agent: OAI-SearchBot
Disallow: /docs/
Allow: /

User-agent: GPTBot
Disallow: /private/

User-agent: *
Allow: /
`

func TestCrossCheckRefusedButAllowed(t *testing.T) {
	t.Parallel()
	res := analyzeString(t, wafLog(), crawlerlog.Options{})
	cc := crawlerlog.CrossCheck(res, robotsAllowingSearch, true, nil)
	r := cc.RefusedButAllowed
	require.True(t, r.Measured)
	require.Empty(t, r.Reason)
	require.Equal(t, 2, r.Count)
	require.Equal(t, int64(3), r.Hits)
	require.False(t, r.Truncated)
	require.Len(t, r.Pages, 2)
	require.Equal(t, "OAI-SearchBot", r.Pages[0].Token)
	require.Equal(t, "/pricing", r.Pages[0].Path, "the forged bot's 403 is not counted")
	require.Equal(t, int64(2), r.Pages[0].Hits)
	require.Equal(t, int64(2), r.Pages[0].VerifiedHits)
	require.Equal(t, map[int]int64{403: 2}, r.Pages[0].Statuses)
	require.Contains(t, r.Pages[0].Robots, "allows")
	require.Equal(t, "/blog/", r.Pages[1].Path)
	require.Equal(t, map[int]int64{429: 1}, r.Pages[1].Statuses)
}

// TestCrossCheckFallback: with no group for Applebot, robots.txt's
// Googlebot group decides for it (Apple documents the fallback).
func TestCrossCheckFallback(t *testing.T) {
	t.Parallel()
	applebot := "Mozilla/5.0 (Applebot/0.1; +http://www.apple.com/go/applebot)"
	res := analyzeString(t, clfLine("17.22.237.10", "/news/", applebot, 403)+"\n"+clfLine("17.22.237.10", "/shop/", applebot, 403), crawlerlog.Options{})
	cc := crawlerlog.CrossCheck(res, "User-agent: Googlebot\nDisallow: /shop/\n\nUser-agent: *\nDisallow: /\n", true, nil)
	require.Equal(t, 1, cc.RefusedButAllowed.Count)
	require.Equal(t, "/news/", cc.RefusedButAllowed.Pages[0].Path)
}

// TestCrossCheckRobotsNotFetched: an unfetched robots.txt measures
// nothing; it never turns refusals into findings.
func TestCrossCheckRobotsNotFetched(t *testing.T) {
	t.Parallel()
	res := analyzeString(t, wafLog(), crawlerlog.Options{})
	cc := crawlerlog.CrossCheck(res, "", false, nil)
	require.False(t, cc.RefusedButAllowed.Measured)
	require.Equal(t, crawlerlog.NotMeasuredNoRobots, cc.RefusedButAllowed.Reason)
	require.Empty(t, cc.RefusedButAllowed.Pages)
	require.Zero(t, cc.RefusedButAllowed.Count)

	cc = crawlerlog.CrossCheck(res, "User-agent: *\nDisallow: /\n", true, nil)
	require.True(t, cc.RefusedButAllowed.Measured)
	require.Zero(t, cc.RefusedButAllowed.Count, "robots.txt disallows everything: refusals agree with it")
}

func TestCrossCheckNeverCrawled(t *testing.T) {
	t.Parallel()
	res := analyzeString(t, wafLog()+"\n"+clfLine("66.249.66.1", "/caf%C3%A9", googlebotUA, 200), crawlerlog.Options{})
	known := []string{
		"https://www.example.com/",
		"https://www.example.com/pricing?x=1",
		"https://www.example.com/private/x",
		"/blog/",
		"https://www.example.com/caf%c3%a9",
		"https://www.example.com/",
		"https://www.example.com/contact",
	}
	nc := crawlerlog.CrossCheck(res, "", false, known).NeverCrawled
	require.True(t, nc.Measured)
	// /private/x was fetched by GPTBot, a training crawler, not a search one;
	// the forged bot's /pricing does not count, the real ones' do.
	require.Equal(t, []string{"https://www.example.com/", "https://www.example.com/private/x", "https://www.example.com/contact"}, nc.Pages)
	require.Equal(t, 3, nc.Count)

	require.Equal(t, crawlerlog.NotMeasuredNoPages, crawlerlog.CrossCheck(res, "", true, nil).NeverCrawled.Reason)
	empty := analyzeString(t, "", crawlerlog.Options{})
	require.Equal(t, crawlerlog.NotMeasuredNoLines, crawlerlog.CrossCheck(empty, "", true, known).NeverCrawled.Reason)

	var b strings.Builder
	for _, p := range []string{"/a", "/b", "/c"} {
		b.WriteString(clfLine("74.7.228.5", p, oaiSearchBotUA, 200) + "\n")
	}
	cut := analyzeString(t, b.String(), crawlerlog.Options{MaxPaths: 0})
	require.False(t, cut.SearchPathsTruncated)
	cut = analyzeString(t, b.String()+strings.Repeat(clfLine("74.7.228.5", "/x", oaiSearchBotUA, 200)+"\n", 1), crawlerlog.Options{MaxPaths: 1})
	require.False(t, cut.SearchPathsTruncated, "ten times MaxPaths")
	var many strings.Builder
	for i := range 11 {
		many.WriteString(clfLine("74.7.228.5", "/p"+strings.Repeat("x", i), oaiSearchBotUA, 200) + "\n")
	}
	cut = analyzeString(t, many.String(), crawlerlog.Options{MaxPaths: 1})
	require.True(t, cut.SearchPathsTruncated)
	nc = crawlerlog.CrossCheck(cut, "", true, known).NeverCrawled
	require.False(t, nc.Measured)
	require.Equal(t, crawlerlog.NotMeasuredPathsCut, nc.Reason)
}

// TestCrossCheckBoundsRobotsText: the verdict quotes the site's robots.txt
// line, cut when long.
func TestCrossCheckBoundsRobotsText(t *testing.T) {
	t.Parallel()
	res := analyzeString(t, clfLine("74.7.228.5", "/pricing", oaiSearchBotUA, 403), crawlerlog.Options{})
	long := "/" + strings.Repeat("é", 400)
	cc := crawlerlog.CrossCheck(res, "User-agent: *\nAllow: /pricing\nDisallow: "+long+"\n", true, nil)
	require.Equal(t, 1, cc.RefusedButAllowed.Count)
	require.Contains(t, cc.RefusedButAllowed.Pages[0].Robots, "Allow: /pricing")
	cc = crawlerlog.CrossCheck(res, "User-agent: *\nAllow: /pr"+strings.Repeat("*", 400)+"\nDisallow: /\n", true, nil)
	require.Equal(t, 1, cc.RefusedButAllowed.Count)
	r := cc.RefusedButAllowed.Pages[0].Robots
	require.Contains(t, r, "Allow: /pr***")
	require.Len(t, r, 300+len("…"))
	require.True(t, utf8.ValidString(r))
}
