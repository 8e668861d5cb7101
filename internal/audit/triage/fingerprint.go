package triage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"

	wappalyzer "github.com/projectdiscovery/wappalyzergo"
)

// The fingerprint database of wappalyzergo (about seven thousand
// technologies) is matched through an index built here once per process.
// The library's own matcher runs every pattern over every input, and its
// patterns are compiled with repetitions expanded to {0,250}, which makes a
// single long script URL cost milliseconds; the index only runs a pattern
// when the literal text it requires is present, and only near it. Patterns
// are still parsed and evaluated by the library (ParsePattern, Evaluate),
// so matches and versions are the library's.

// fpPattern is compiled on first use: most of the database never matches
// anything a given site sends, and compiled patterns are large.
type fpPattern struct {
	app  string
	raw  string
	lit  string // lower-case text every match contains; "" when none is known
	once sync.Once
	p    *wappalyzer.ParsedPattern // nil when the pattern does not compile
}

func (f *fpPattern) compiled() *wappalyzer.ParsedPattern {
	f.once.Do(func() {
		if p, err := wappalyzer.ParsePattern(f.raw); err == nil {
			f.p = p
		}
	})
	return f.p
}

type fpIndex struct {
	headers map[string][]*fpPattern // by lower-case header name
	cookies map[string][]*fpPattern // by cookie name
	meta    map[string][]*fpPattern // by lower-case meta name
	scripts []*fpPattern
	html    []*fpPattern // only patterns with a literal
	implies map[string][]string
	cats    map[string][]string
}

// fingerprints is built once per process.
var fingerprints = sync.OnceValues(loadIndex)

// Warm builds the fingerprint index ahead of the first scan.
func Warm() error {
	_, err := fingerprints()
	return err
}

func loadIndex() (*fpIndex, error) {
	var db wappalyzer.Fingerprints
	if err := json.Unmarshal([]byte(wappalyzer.GetRawFingerprints()), &db); err != nil {
		return nil, fmt.Errorf("decode fingerprint database: %w", err)
	}
	names := wappalyzer.GetCategoriesMapping()
	idx := &fpIndex{
		headers: map[string][]*fpPattern{}, cookies: map[string][]*fpPattern{}, meta: map[string][]*fpPattern{},
		implies: map[string][]string{}, cats: map[string][]string{},
	}
	compile := func(app, pattern string) *fpPattern {
		return &fpPattern{app: app, raw: pattern, lit: requiredLiteral(pattern)}
	}
	for app, f := range db.Apps {
		for _, c := range f.Cats {
			if item, ok := names[c]; ok {
				idx.cats[app] = append(idx.cats[app], item.Name)
			}
		}
		for _, imp := range f.Implies {
			name, _, _ := strings.Cut(imp, `\;`)
			idx.implies[app] = append(idx.implies[app], name)
		}
		for h, pat := range f.Headers {
			p := compile(app, pat)
			idx.headers[strings.ToLower(h)] = append(idx.headers[strings.ToLower(h)], p)

		}
		for c, pat := range f.Cookies {
			p := compile(app, pat)
			idx.cookies[strings.ToLower(c)] = append(idx.cookies[strings.ToLower(c)], p)

		}
		for m, pats := range f.Meta {
			for _, pat := range pats {
				p := compile(app, pat)
				idx.meta[strings.ToLower(m)] = append(idx.meta[strings.ToLower(m)], p)

			}
		}
		for _, pat := range f.ScriptSrc {
			p := compile(app, pat)
			idx.scripts = append(idx.scripts, p)

		}
		for _, pat := range f.HTML {
			if p := compile(app, pat); len(p.lit) >= 4 {
				idx.html = append(idx.html, p)
			}
		}
	}
	return idx, nil
}

// requiredLiteral returns the longest lower-case text that every match of
// the pattern contains, or "" when the pattern does not pin one down.
func requiredLiteral(pattern string) string {
	rx, _, _ := strings.Cut(pattern, `\;`)
	if rx == "" {
		return ""
	}
	re, err := syntax.Parse(rx, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return ""
	}
	return strings.ToLower(literalOf(re.Simplify()))
}

func literalOf(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return literalOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literalOf(re.Sub[0])
		}
	case syntax.OpConcat:
		// Adjacent literal children join into one longer required text.
		best, run := "", ""
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral {
				run += string(sub.Rune)
				if len(run) > len(best) {
					best = run
				}
				continue
			}
			run = ""
			if l := literalOf(sub); len(l) > len(best) {
				best = l
			}
		}
		return best
	}
	return ""
}

// fpKind is which part of a response a database pattern matched.
type fpKind string

// The kinds of pattern. Header, cookie and meta patterns read what the
// site itself sends about itself; script and html patterns read URLs and
// markup that third-party embeds and content share, so they only support.
const (
	fpHeader fpKind = "header"
	fpCookie fpKind = "cookie"
	fpMeta   fpKind = "meta"
	fpScript fpKind = "script"
	fpHTML   fpKind = "html"
)

// strong reports a kind that is evidence on its own.
func (k fpKind) strong() bool { return k == fpHeader || k == fpCookie || k == fpMeta }

// fpMatches collects app → version with the library's confidence rules:
// confidences add up to 100 and the first version found is kept. The
// kinds of pattern that matched are kept for the strength of the evidence.
type fpMatches map[string]*fpMatch

type fpMatch struct {
	version    string
	confidence int
	kinds      map[fpKind]bool
}

func (m fpMatches) add(app, version string, confidence int, kind fpKind) {
	cur, ok := m[app]
	if !ok {
		cur = &fpMatch{kinds: map[fpKind]bool{}}
		m[app] = cur
	}
	cur.confidence = min(cur.confidence+confidence, 100)
	cur.kinds[kind] = true
	if cur.version == "" {
		cur.version = version
	}
}

func (m fpMatches) try(f *fpPattern, target string, kind fpKind) {
	if f.lit != "" && !strings.Contains(target, f.lit) {
		return
	}
	m.evaluate(f, target, kind)
}

func (m fpMatches) evaluate(f *fpPattern, target string, kind fpKind) {
	p := f.compiled()
	if p == nil {
		return
	}
	if ok, version := p.Evaluate(target); ok {
		m.add(f.app, version, p.Confidence, kind)
	}
}

// htmlWindow is how much text around a required literal a whole-document
// pattern is run on; the database's repetitions are bounded at 250.
const htmlWindow = 600

// match runs the index over one document: headers, cookies, meta tags,
// script sources, and the whole-document patterns near their literals.
func (idx *fpIndex) match(m fpMatches, header http.Header, cookies map[string]string, meta map[string][]string, scripts []string, lowerBody []byte) {
	for name, values := range header {
		pats := idx.headers[strings.ToLower(name)]
		if len(pats) == 0 {
			continue
		}
		v := strings.ToLower(strings.Join(values, ", "))
		for _, p := range pats {
			m.try(p, v, fpHeader)
		}
	}
	for name, value := range cookies {
		for _, p := range idx.cookies[name] {
			m.try(p, strings.ToLower(value), fpCookie)
		}
	}
	for name, values := range meta {
		for _, p := range idx.meta[name] {
			for _, v := range values {
				m.try(p, strings.ToLower(v), fpMeta)
			}
		}
	}
	for _, src := range scripts {
		for _, p := range idx.scripts {
			m.try(p, src, fpScript)
		}
	}
	for _, p := range idx.html {
		at := bytes.Index(lowerBody, []byte(p.lit))
		if at < 0 {
			continue
		}
		m.evaluate(p, string(lowerBody[max(0, at-htmlWindow):min(len(lowerBody), at+len(p.lit)+htmlWindow)]), fpHTML)
	}
}

// fpFound is a technology the database recognised: its version, the
// kinds of pattern that matched, or implied when another match implies it.
type fpFound struct {
	version string
	kinds   []fpKind // sorted; empty when only implied
}

// strong reports a match of a header, cookie or meta pattern, or of two
// kinds of pattern at once.
func (f fpFound) strong() bool {
	for _, k := range f.kinds {
		if k.strong() {
			return true
		}
	}
	return len(f.kinds) >= 2
}

// what names the evidence for the ledger.
func (f fpFound) what() string {
	if len(f.kinds) == 0 {
		return "fingerprint database (implied)"
	}
	parts := make([]string, len(f.kinds))
	for i, k := range f.kinds {
		parts[i] = string(k)
	}
	return "fingerprint database (" + strings.Join(parts, ", ") + ")"
}

// resolve adds implied technologies and drops zero-confidence matches.
func (idx *fpIndex) resolve(m fpMatches) map[string]fpFound {
	out := map[string]fpFound{}
	var visit func(app, version string, kinds []fpKind, depth int)
	visit = func(app, version string, kinds []fpKind, depth int) {
		cur, ok := out[app]
		if ok && len(cur.kinds) > 0 && (cur.version != "" || version == "") {
			return
		}
		if ok && len(kinds) == 0 {
			kinds = cur.kinds
		}
		if ok && version == "" {
			version = cur.version
		}
		out[app] = fpFound{version: version, kinds: kinds}
		if depth < 5 {
			for _, imp := range idx.implies[app] {
				visit(imp, "", nil, depth+1)
			}
		}
	}
	apps := make([]string, 0, len(m))
	for app := range m {
		apps = append(apps, app)
	}
	sort.Strings(apps) // a deterministic order of implications
	for _, app := range apps {
		r := m[app]
		if r.confidence <= 0 {
			continue
		}
		kinds := make([]fpKind, 0, len(r.kinds))
		for k := range r.kinds {
			kinds = append(kinds, k)
		}
		sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
		visit(app, r.version, kinds, 0)
	}
	return out
}
