package triage

import (
	"bytes"
	"net/http"
	"sort"
	"strings"

	"github.com/geoscan/geoscan/internal/fetch"
	"github.com/geoscan/geoscan/internal/page"
)

// notATechnology lists fingerprint entries that name a header setting
// rather than something the site is built with.
var notATechnology = map[string]bool{"HSTS": true}

// Tech is one recognised technology.
type Tech struct {
	Name       string
	Categories []string
	Version    string
	Score      int // summed signal weight, capped at 100; never leaves the package as a number
	Role       Role
	Class      Class
	// Evidence names the signals that matched, for the engineering ledger.
	Evidence      []string
	BotManagement bool
	Headless      bool
}

// Confidence turns the score into a level.
func (t Tech) Confidence() string {
	switch {
	case t.Score >= highScore:
		return "high"
	case t.Score >= mediumScore:
		return "medium"
	}
	return "low"
}

// Detection is what a site is built with.
type Detection struct {
	CMS, Builder, Framework *Tech
	// Technologies is every recognised technology, strongest first.
	Technologies []Tech
	// BotManagement is set when a CDN/WAF product that challenges bots was seen.
	BotManagement bool
	Headless      bool
	// FingerprintError is set when the fingerprint database could not be
	// loaded; detection then rests on the in-house table alone.
	FingerprintError error
}

// document is one fetched page prepared for matching.
type document struct {
	headers    http.Header
	lower      []byte // lower-cased body
	generators []string
	scripts    []string
	cookies    map[string]string // Set-Cookie name (lower case) → value
	meta       map[string][]string
}

func newDocument(r *fetch.Response, p *page.Page) document {
	d := document{headers: r.Header, lower: bytes.ToLower(r.Body)}
	if d.headers == nil {
		d.headers = http.Header{}
	}
	if p != nil {
		d.meta = p.Meta
		for _, g := range p.Meta["generator"] {
			d.generators = append(d.generators, strings.ToLower(g))
		}
		for _, s := range p.Scripts {
			if s.Src != "" {
				d.scripts = append(d.scripts, strings.ToLower(s.Src))
			}
		}
	}
	d.cookies = map[string]string{}
	for _, c := range d.headers.Values("Set-Cookie") {
		pair, _, _ := strings.Cut(c, ";")
		name, value, _ := strings.Cut(pair, "=")
		d.cookies[strings.ToLower(strings.TrimSpace(name))] = strings.TrimSpace(value)
	}
	return d
}

// documents returns the homepage and the other fetched HTML pages that
// answered 2xx, homepage first.
func documents(site *fetch.Site) []document {
	var docs []document
	if site.Home != nil && site.Home.OK() {
		docs = append(docs, newDocument(site.Home, site.HomePage))
	}
	for _, r := range site.Pages {
		if p := site.Page(r); p != nil && r.OK() {
			docs = append(docs, newDocument(r, p))
		}
	}
	return docs
}

// Detect recognises the technologies of a fetched site: the fingerprint
// database over the homepage and the sampled pages, then the in-house
// table, which weighs every signal and decides the platform triple.
func Detect(site *fetch.Site) Detection {
	docs := documents(site)
	var det Detection

	// name → version for everything the fingerprint database recognised.
	found := map[string]string{}
	idx, err := fingerprints()
	if err != nil {
		det.FingerprintError = err
	} else {
		m := fpMatches{}
		seenScript := map[string]bool{}
		for i, d := range docs {
			// Whole-document patterns run on the homepage only: they cost a
			// scan of the page per pattern, and site-wide technologies show
			// on the homepage. Headers, cookies, meta tags and scripts are
			// read on every page.
			body := d.lower
			if i > 0 {
				body = nil
			}
			// Site-wide scripts repeat on every page; each is matched once.
			var scripts []string
			for _, src := range d.scripts {
				if !seenScript[src] {
					seenScript[src] = true
					scripts = append(scripts, src)
				}
			}
			idx.match(m, d.headers, d.cookies, d.meta, scripts, body)
		}
		found = idx.resolve(m)
	}
	cats := func(name string) []string {
		if idx == nil {
			return nil
		}
		return idx.cats[name]
	}

	var probes []http.Header
	for _, b := range site.Bots {
		if b.Response != nil && b.Response.Header != nil {
			probes = append(probes, b.Response.Header)
		}
	}

	byName := map[string]*Tech{}
	var techs []*Tech
	for i := range rules {
		r := &rules[i]
		t := evaluate(r, docs, probes, found)
		if t.Score < minScore {
			continue
		}
		if v, ok := found[fpName(r)]; ok {
			t.Version = v
		}
		techs = append(techs, &t)
		byName[r.name] = &t
	}
	// Everything else the fingerprint database saw, at the confidence one
	// database match carries.
	for name, version := range found {
		if byName[name] != nil || fingerprintNamesOfRules[name] || notATechnology[name] {
			continue
		}
		t := &Tech{Name: name, Version: version, Categories: cats(name), Score: fpWeight, Evidence: []string{"fingerprint database match"}}
		techs = append(techs, t)
		byName[name] = t
	}

	subsumed := map[string]bool{}
	for _, t := range techs {
		if r := rulesByName[t.Name]; r != nil {
			for _, s := range r.subsumes {
				subsumed[s] = true
			}
		}
	}
	pick := func(role Role) *Tech {
		var best *Tech
		for _, t := range techs {
			if t.Role != role || subsumed[t.Name] {
				continue
			}
			if best == nil || t.Score > best.Score {
				best = t // ties keep the earlier rule: the table is ordered by precedence
			}
		}
		if best == nil {
			return nil
		}
		c := *best
		return &c
	}
	det.CMS, det.Builder, det.Framework = pick(RoleCMS), pick(RoleBuilder), pick(RoleFramework)

	sort.SliceStable(techs, func(i, j int) bool {
		if techs[i].Score != techs[j].Score {
			return techs[i].Score > techs[j].Score
		}
		return techs[i].Name < techs[j].Name
	})
	for _, t := range techs {
		det.Technologies = append(det.Technologies, *t)
		det.BotManagement = det.BotManagement || t.BotManagement
		det.Headless = det.Headless || t.Headless
	}
	return det
}

// evaluate sums the weights of a rule's signals that match any document.
func evaluate(r *rule, docs []document, probes []http.Header, found map[string]string) Tech {
	t := Tech{Name: r.name, Categories: r.categories, Role: r.role, Class: r.class, BotManagement: r.botManagement, Headless: r.headless}
	for _, s := range r.signals {
		if matches(s, r, docs, probes, found) {
			t.Score += s.weight
			t.Evidence = append(t.Evidence, s.what)
		}
	}
	t.Score = min(t.Score, 100)
	return t
}

func matches(s signal, r *rule, docs []document, probes []http.Header, found map[string]string) bool {
	switch s.where {
	case inFingerprint:
		name := s.key
		if name == "" {
			name = r.name
		}
		_, ok := found[name]
		return ok
	case inBotProbe:
		for _, h := range probes {
			if headerMatches(h, s) {
				return true
			}
		}
		return false
	}
	for _, d := range docs {
		switch s.where {
		case inHeader:
			if headerMatches(d.headers, s) {
				return true
			}
		case inCookie:
			for c := range d.cookies {
				if strings.HasPrefix(c, s.key) {
					return true
				}
			}
		case inGenerator:
			for _, g := range d.generators {
				if strings.HasPrefix(g, s.contains) {
					return true
				}
			}
		case inBody:
			if bytes.Contains(d.lower, []byte(s.contains)) {
				return true
			}
		case inScript:
			for _, src := range d.scripts {
				if strings.Contains(src, s.contains) {
					return true
				}
			}
		}
	}
	return false
}

func headerMatches(h http.Header, s signal) bool {
	for _, v := range h.Values(s.key) {
		if s.contains == "" || strings.Contains(strings.ToLower(v), s.contains) {
			return true
		}
	}
	return false
}

func fpName(r *rule) string {
	for _, s := range r.signals {
		if s.where == inFingerprint && s.key != "" {
			return s.key
		}
	}
	return r.name
}

// Lookups over the rules table, built once.
var (
	rulesByName             = map[string]*rule{}
	fingerprintNamesOfRules = map[string]bool{} // database names some rule already covers
)

func init() {
	for i := range rules {
		rulesByName[rules[i].name] = &rules[i]
		fingerprintNamesOfRules[fpName(&rules[i])] = true
	}
}
