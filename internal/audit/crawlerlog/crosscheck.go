package crawlerlog

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/audit/robots"
)

// CrossCheckResult sets the log beside the site's robots.txt and pages.
type CrossCheckResult struct {
	RefusedButAllowed RefusedButAllowed `json:"refused_but_allowed"`
	NeverCrawled      NeverCrawled      `json:"never_crawled"`
}

// RefusedButAllowed lists the pages where a crawler got refusals (see
// RefusalStatus) although robots.txt allows that crawler that page: a
// WAF, rate limiter or bot filter blocks what the site means to allow.
// Hits that failed verification are left out (blocking a forged bot is
// right), so are hits of control tokens, which never fetch.
type RefusedButAllowed struct {
	// Measured is false when robots.txt could not be fetched: then nothing
	// is known of what it allows, and Reason says so.
	Measured bool   `json:"measured"`
	Reason   string `json:"reason,omitempty"`
	// Pages are the refused pages robots.txt allows, most refused hits
	// first, at most MaxCrossCheckItems.
	Pages []RefusedPage `json:"pages"`
	// Count is the number of such pages before the cut; Hits their
	// refused hits.
	Count int   `json:"count"`
	Hits  int64 `json:"hits"`
	// Truncated is set when the log had more refused pages than were kept
	// or evaluated (Bot.RefusedTruncated, maxRobotsEvaluations).
	Truncated bool `json:"truncated"`
}

// RefusedPage is one bot's refusals on one path robots.txt allows it.
type RefusedPage struct {
	Token string `json:"token"`
	Owner string `json:"owner"`
	Role  string `json:"role"`
	Path  string `json:"path"`
	// Hits are the refused hits (verified or not checked), VerifiedHits
	// those verified, Statuses the refusal statuses.
	Hits         int64         `json:"hits"`
	VerifiedHits int64         `json:"verified_hits"`
	Statuses     map[int]int64 `json:"statuses"`
	// Robots explains why robots.txt allows the token the path.
	Robots string `json:"robots"`
}

// NeverCrawled lists the site's known pages no AI search crawler (role
// search) requested in the log.
type NeverCrawled struct {
	Measured bool   `json:"measured"`
	Reason   string `json:"reason,omitempty"`
	// Pages are the first MaxCrossCheckItems such pages, in the order
	// given; Count is how many there are.
	Pages []string `json:"pages"`
	Count int      `json:"count"`
}

// MaxCrossCheckItems bounds the pages each part of a CrossCheckResult
// lists.
const MaxCrossCheckItems = 100

// maxRobotsEvaluations bounds the robots.txt verdicts one cross-check
// asks for: each reads the file again (grobotstxt keeps no parsed form),
// and a file may be 500 KiB.
const maxRobotsEvaluations = 2000

// The reasons a cross-check is not measured.
const (
	NotMeasuredNoRobots = "robots.txt could not be fetched, so what it allows is unknown"
	NotMeasuredNoPages  = "the audit knows no pages of the site"
	NotMeasuredNoLines  = "the log has no analysed requests"
	NotMeasuredPathsCut = "the log has more paths requested by AI search crawlers than are kept, so a page missing from them may still have been crawled"
)

// CrossCheck compares an analysis with the site's robots.txt (its text and
// whether it was fetched; a robots.txt that could not be fetched means
// "not measured", never "refused") and the pages the audit knows (URLs or
// paths).
func CrossCheck(res Result, robotsTxt string, robotsFetched bool, knownPages []string) CrossCheckResult {
	return CrossCheckResult{
		RefusedButAllowed: refusedButAllowed(res, robotsTxt, robotsFetched),
		NeverCrawled:      neverCrawled(res, knownPages),
	}
}

func refusedButAllowed(res Result, robotsTxt string, fetched bool) RefusedButAllowed {
	out := RefusedButAllowed{Pages: []RefusedPage{}}
	if !fetched {
		out.Reason = NotMeasuredNoRobots
		return out
	}
	out.Measured = true
	type candidate struct {
		bot  *Bot
		page *Page
	}
	var cands []candidate
	for i := range res.Bots {
		b := &res.Bots[i]
		if b.Role == string(robots.Control) {
			continue
		}
		if b.RefusedTruncated {
			out.Truncated = true
		}
		for j := range b.Refused {
			cands = append(cands, candidate{b, &b.Refused[j]})
		}
	}
	// The most refused pages are judged first, so a cut drops the least.
	slices.SortStableFunc(cands, func(x, y candidate) int { return cmp.Compare(y.page.Hits, x.page.Hits) })
	if len(cands) > maxRobotsEvaluations {
		cands, out.Truncated = cands[:maxRobotsEvaluations], true
	}
	f := robots.ParseBody(robotsTxt)
	for _, c := range cands {
		v := f.Allowed(c.bot.Token, c.page.Path)
		if !v.Allowed {
			continue
		}
		refusals := map[int]int64{}
		for s, n := range c.page.Statuses {
			if RefusalStatus(s) {
				refusals[s] = n
			}
		}
		out.Count++
		out.Hits += c.page.Hits
		if len(out.Pages) < MaxCrossCheckItems {
			out.Pages = append(out.Pages, RefusedPage{
				Token: c.bot.Token, Owner: c.bot.Owner, Role: c.bot.Role, Path: c.page.Path,
				Hits: c.page.Hits, VerifiedHits: c.page.VerifiedHits, Statuses: refusals, Robots: cut(v.Reason, maxReasonBytes),
			})
		}
	}
	return out
}

func neverCrawled(res Result, known []string) NeverCrawled {
	out := NeverCrawled{Pages: []string{}}
	switch {
	case len(known) == 0:
		out.Reason = NotMeasuredNoPages
		return out
	case res.ParsedLines-res.OtherHostLines == 0:
		out.Reason = NotMeasuredNoLines
		return out
	case res.SearchPathsTruncated:
		out.Reason = NotMeasuredPathsCut
		return out
	}
	out.Measured = true
	crawled := make(map[string]bool, len(res.SearchPaths))
	for _, p := range res.SearchPaths {
		crawled[comparablePath(p)] = true
	}
	seen := map[string]bool{}
	for _, k := range known {
		p := comparablePath(pagePath(k))
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if crawled[p] {
			continue
		}
		out.Count++
		if len(out.Pages) < MaxCrossCheckItems {
			out.Pages = append(out.Pages, k)
		}
	}
	return out
}

// maxReasonBytes bounds the robots.txt verdict quoted in a RefusedPage:
// it quotes the deciding line of the site's file, which can be of any
// length.
const maxReasonBytes = 300

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for i := 0; i < utf8.UTFMax && !utf8.ValidString(s); i++ {
		s = s[:len(s)-1] // the bytes of a cut rune
	}
	return s + "…"
}

// pagePath takes the path of a page given as a URL or a path.
func pagePath(page string) string {
	page = strings.TrimSpace(page)
	if strings.HasPrefix(page, "/") {
		if p, ok := targetPath([]byte(page)); ok {
			return string(p)
		}
		return ""
	}
	u, err := url.Parse(page)
	if err != nil || u.Host == "" {
		return ""
	}
	if u.EscapedPath() == "" {
		return "/"
	}
	return u.EscapedPath()
}

// comparablePath puts a path in the form both sides are compared in: cut
// like the stored paths, then percent-escapes decoded where valid (a log
// may hold "/caf%C3%A9" where the audit holds "/caf%c3%a9").
func comparablePath(p string) string {
	if len(p) > MaxStoredPath {
		p = p[:MaxStoredPath]
	}
	if d, err := url.PathUnescape(p); err == nil {
		p = d
	}
	return p
}
