package fixes

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// scan is one audit as the writers read it: the site, its outcomes by
// check id, its platform and the facts several fixes share, each worked
// out once.
type scan struct {
	in   Input
	site *fetch.Site
	home *page.Page
	// homeURL is where the homepage ended up; origin its scheme and host.
	homeURL string
	origin  *url.URL
	byID    map[string]checks.Outcome
	plat    *platformDef

	robotsDone bool
	robots     *robotsResult
	identity   *jsonldResult
}

func newScan(in Input) *scan {
	s := &scan{in: in, site: in.Site, home: in.Site.HomePage, byID: map[string]checks.Outcome{}, plat: platformFor(in.Platform)}
	for _, o := range in.Outcomes {
		if o.Check != nil {
			s.byID[o.Check.ID] = o
		}
	}
	s.homeURL = in.Site.Target.String()
	if h := in.Site.Home; h != nil && h.FinalURL != "" {
		s.homeURL = h.FinalURL
	}
	u, err := url.Parse(s.homeURL)
	if err != nil || u.Host == "" {
		u = in.Site.Target
	}
	s.origin = &url.URL{Scheme: u.Scheme, Host: u.Host}
	return s
}

// at is the absolute URL of a path on the site.
func (s *scan) at(path string) string {
	return s.origin.ResolveReference(&url.URL{Path: path}).String()
}

// root is the site's homepage at its root, for @id and url values.
func (s *scan) root() string { return s.at("/") }

// status is the verdict of a check in this scan; "" when it did not run.
func (s *scan) status(id string) checks.Status {
	if o, ok := s.byID[id]; ok {
		return o.Result.Status
	}
	return ""
}

func (s *scan) open(id string) bool {
	st := s.status(id)
	return st == checks.Warn || st == checks.Fail
}

// finish completes a fix with what every fix carries: the platform the
// steps are written for and what limits them.
func (s *scan) finish(f *Fix) {
	defer scrub(f)
	f.Platform = s.plat.name
	if !s.in.Platform.Known {
		f.Notes = append(f.Notes, "Site Triage could not tell what the site is built with, so the steps are generic.")
	} else if s.plat.name == genericPlatform {
		f.Notes = append(f.Notes, "Site Triage recognised no platform it has steps for, so the steps are generic.")
	}
	if f.Artifact != nil && len(f.Review) > 0 && s.home != nil && s.home.Words < 30 {
		held := fmt.Sprintf("only %d words of text", s.home.Words)
		if s.home.Words == 0 {
			held = "no text of its own"
		}
		f.Notes = append(f.Notes, "The homepage's HTML holds "+held+" (the rest is rendered by JavaScript, which crawlers mostly do not run), so there was little of the site's own wording to fill in.")
	}
}

// scrub makes every text of a fix storable as is: NUL and bytes that are
// not UTF-8 become U+FFFD.
func scrub(f *Fix) {
	clean := func(s string) string {
		return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
	}
	// A text is written back only when it changed: lists may share a
	// package's own steps, which concurrent audits read.
	all := func(list []string) {
		for i := range list {
			if c := clean(list[i]); c != list[i] {
				list[i] = c
			}
		}
	}
	f.Summary.Engineering, f.Summary.Marketing = clean(f.Summary.Engineering), clean(f.Summary.Marketing)
	all(f.Edits)
	all(f.PlatformSteps)
	all(f.Review)
	all(f.Notes)
	for i := range f.Verify {
		v := &f.Verify[i]
		v.Step.Engineering, v.Step.Marketing, v.Command = clean(v.Step.Engineering), clean(v.Step.Marketing), clean(v.Command)
	}
	if a := f.Artifact; a != nil {
		a.Content, a.Location = clean(a.Content), clean(a.Location)
		all(a.Checked)
	}
}

// pages are the homepage and the other pages the scan parsed, the
// homepage first.
func (s *scan) pages() []*page.Page {
	var out []*page.Page
	if s.home != nil {
		out = append(out, s.home)
	}
	for _, r := range s.site.Pages {
		if p := s.site.Page(r); p != nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// pagesFor are the parsed pages of a purpose.
func (s *scan) pagesFor(p fetch.Purpose) []*page.Page {
	var out []*page.Page
	for _, r := range s.site.PagesFor(p) {
		if pg := s.site.Page(r); pg != nil {
			out = append(out, pg)
		}
	}
	return out
}

// pageAt is the parsed page whose URL is u.
func (s *scan) pageAt(u string) *page.Page {
	for _, p := range s.pages() {
		if p.URL != nil && sameURL(p.URL.String(), u) {
			return p
		}
	}
	return nil
}

func sameURL(a, b string) bool {
	return strings.TrimSuffix(strings.ToLower(a), "/") == strings.TrimSuffix(strings.ToLower(b), "/")
}

// evidence reads a list of strings from a check's evidence, as the
// evaluator stored it ([]string) or as JSON decodes it ([]any).
func (s *scan) evidenceStrings(id, key string) []string {
	o, ok := s.byID[id]
	if !ok {
		return nil
	}
	switch v := o.Result.Evidence[key].(type) {
	case []string:
		return v
	case []any:
		var out []string
		for _, x := range v {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// orgEvidence reads a string of organization_entity's evidence: what it
// found of the site's identity entity.
func (s *scan) orgEvidence(key string) string {
	if o, ok := s.byID["organization_entity"]; ok {
		if v, ok := o.Result.Evidence[key].(string); ok {
			return v
		}
	}
	return ""
}

// evidenceRows reads a list of objects from a check's evidence.
func (s *scan) evidenceRows(id, key string) []map[string]any {
	o, ok := s.byID[id]
	if !ok {
		return nil
	}
	switch v := o.Result.Evidence[key].(type) {
	case []map[string]any:
		return v
	case []any:
		var out []map[string]any
		for _, x := range v {
			if m, ok := x.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

// rowStrings reads a list of strings from an evidence row.
func rowStrings(row map[string]any, key string) []string {
	switch v := row[key].(type) {
	case []string:
		return v
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Text from the site is data. line makes it one line of plain text:
// control characters and line or paragraph separators become spaces,
// runs of spaces one, invalid UTF-8 the replacement character.
func line(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// clip shortens one-line text to at most n characters at a word
// boundary, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	cut := string(rs[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:-–—|·") + "…"
}

// shellQuote quotes a word for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// errText is an error as the end of a sentence.
func errText(err error) string {
	return strings.TrimSuffix(err.Error(), ".") + "."
}
