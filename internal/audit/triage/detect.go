package triage

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/publicsuffix"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
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
	// Evidence names the signals that matched, for the engineering ledger,
	// each with an example where one helps ("assets under /wp-content/ on
	// the site's own host (/wp-content/themes/x/style.css)").
	Evidence []string
	// Strong is set when one signal names the technology on its own.
	Strong bool
	// kinds counts the distinct places (see where) of the in-house
	// signals that matched; two agreeing places corroborate each other.
	kinds int
	// implied is set when the only evidence is the fingerprint database's
	// implication from another match (Next.js implies React): the
	// technology is listed but decides no role.
	implied       bool
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

// accepted reports a technology whose evidence is enough to name it: for
// the roles of the platform triple, one strong signal or weak signals in
// two different places (a class and an asset path, say; two readings of
// one URL are one piece of evidence, and so is a script or html pattern of
// the fingerprint database, which reads the same markup); for the others,
// the minimum score. A single weak signal never names a CMS, a builder or
// a framework.
func (t Tech) accepted() bool {
	if t.Score < minScore {
		return false
	}
	return t.Role == RoleOther || t.Strong || t.kinds >= 2 || t.implied
}

// Detection is what a site is built with.
type Detection struct {
	CMS, Builder, Framework *Tech
	// Technologies is every recognised technology, strongest first.
	Technologies []Tech
	// BotManagement is set when a CDN/WAF product that challenges bots was seen.
	BotManagement bool
	Headless      bool
	// Notes explain evidence that was seen and not counted: platform
	// markers only in URLs of other sites, and candidates for the platform
	// triple with a single weak signal.
	Notes []string
	// FingerprintError is set when the fingerprint database could not be
	// loaded; detection then rests on the in-house table alone.
	FingerprintError error
}

// ref is one URL of a document.
type ref struct {
	hostPath string // lower-case host and path
	path     string // lower-case path
	resource bool   // loaded by the page (script, style, image, frame, media), not a link
	own      bool   // on the site's hosts or an asset host evidenced as its own
	host     string
}

// document is one fetched page prepared for matching.
type document struct {
	headers    http.Header
	lower      []byte // lower-cased body, for the fingerprint database
	generators []string
	scripts    []string          // script sources, any host, lower case
	cookies    map[string]string // Set-Cookie name (lower case) → value
	meta       map[string][]string
	refs       []ref
	classes    map[string]bool
	attrs      map[string]bool
	elements   map[string]bool
	ids        map[string]bool
	code       string // inline JavaScript outside string literals and comments, lower case
	inline     string // inline JavaScript as written, lower case
	comments   string // HTML comments, lower case
}

// owner knows which hosts are the site's: those of the registrable
// domains of the target and of the homepage's final URL, and asset hosts
// evidenced as the site's (see own).
type owner struct {
	domains map[string]bool
	hosts   []string // the site's host names, without www.
	brands  []string // registrable names without their suffix, at least five letters
}

func newOwner(site *fetch.Site) owner {
	o := owner{domains: map[string]bool{}}
	add := func(u *url.URL) {
		if u == nil || u.Hostname() == "" {
			return
		}
		h := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
		o.hosts = append(o.hosts, h)
		d := registrableHost(h)
		o.domains[d] = true
		if suffix, _ := publicsuffix.PublicSuffix(d); len(d) > len(suffix)+1 {
			if b := strings.TrimSuffix(d, "."+suffix); len(b) >= 5 {
				o.brands = append(o.brands, b)
			}
		}
	}
	add(site.Target)
	if site.Home != nil {
		if u, err := url.Parse(site.Home.FinalURL); err == nil {
			add(u)
		}
	}
	return o
}

func registrableHost(h string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
}

// own reports a URL of the site: on its registrable domain (any
// subdomain), or on an asset host evidenced as its own — an image proxy
// whose path carries the site's host name (i0.wp.com/example.com/…) or a
// host named after the site on a CDN's domain (example.b-cdn.net).
func (o owner) own(u *url.URL) bool {
	h := strings.ToLower(u.Hostname())
	if h == "" {
		return false
	}
	if o.domains[registrableHost(strings.TrimPrefix(h, "www."))] {
		return true
	}
	p := strings.ToLower(u.Path)
	for _, own := range o.hosts {
		if strings.HasPrefix(p, "/"+own+"/") {
			return true
		}
	}
	if !cdnDomains[registrableHost(h)] {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(h, registrableHost(h)), ".") {
		for _, b := range o.brands {
			if strings.Contains(label, b) {
				return true
			}
		}
	}
	return false
}

// cdnDomains are CDN and managed-hosting domains that give each customer
// a host named after the site (example.b-cdn.net, example.azureedge.net).
// A host elsewhere that merely contains the site's name is another site.
var cdnDomains = map[string]bool{
	"b-cdn.net": true, "azureedge.net": true, "akamaized.net": true, "kxcdn.com": true, "stackpathcdn.com": true,
	"stackpathdns.com": true, "netdna-ssl.com": true, "netdna-cdn.com": true, "wpenginepowered.com": true, "wpengine.com": true,
	"kinstacdn.com": true, "pantheonsite.io": true, "cdn77.org": true, "imgix.net": true, "r2.dev": true, "pages.dev": true,
	"netlify.app": true, "vercel.app": true, "fastly.net": true, "sirv.com": true, "gumlet.io": true, "flywheelsites.com": true,
}

// urlAttrs are the attributes that hold URLs.
var urlAttrs = map[string]bool{"src": true, "href": true, "srcset": true, "data-src": true, "data-srcset": true, "poster": true, "action": true, "data": true}

// linkRels are <link> relations that point at documents rather than load
// a resource.
var linkRels = map[string]bool{"canonical": true, "alternate": true, "next": true, "prev": true, "author": true, "license": true, "shortlink": true, "help": true, "search": true}

func newDocument(r *fetch.Response, p *page.Page, o owner) document {
	d := document{
		headers: r.Header, lower: bytes.ToLower(r.Body), cookies: map[string]string{},
		classes: map[string]bool{}, attrs: map[string]bool{}, elements: map[string]bool{}, ids: map[string]bool{},
	}
	if d.headers == nil {
		d.headers = http.Header{}
	}
	for _, c := range d.headers.Values("Set-Cookie") {
		pair, _, _ := strings.Cut(c, ";")
		name, value, _ := strings.Cut(pair, "=")
		d.cookies[strings.ToLower(strings.TrimSpace(name))] = strings.TrimSpace(value)
	}
	if p == nil {
		return d
	}
	d.meta = p.Meta
	for _, g := range p.Meta["generator"] {
		d.generators = append(d.generators, strings.ToLower(g))
	}
	for _, s := range p.Scripts {
		if s.Src != "" {
			d.scripts = append(d.scripts, strings.ToLower(s.Src))
		}
	}
	var code, inline, comments strings.Builder
	addRef := func(raw string, resource bool) {
		raw = strings.TrimSpace(raw)
		if raw == "" || strings.HasPrefix(raw, "data:") || strings.HasPrefix(raw, "#") {
			return
		}
		u, err := url.Parse(p.Resolve(raw))
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return
		}
		h := strings.ToLower(u.Hostname())
		path := strings.ToLower(u.EscapedPath())
		d.refs = append(d.refs, ref{hostPath: h + path, path: path, resource: resource, own: o.own(u), host: h})
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.CommentNode:
			comments.WriteString(strings.ToLower(n.Data))
			comments.WriteByte('\n')
		case html.ElementNode:
			d.elements[n.Data] = true
			resource := n.Data != "a" && n.Data != "area" && n.Data != "form"
			if n.Data == "link" {
				for _, rel := range strings.Fields(strings.ToLower(attrOf(n, "rel"))) {
					if linkRels[rel] || strings.Contains(rel, ":") {
						resource = false
					}
				}
			}
			for _, a := range n.Attr {
				k := strings.ToLower(a.Key)
				d.attrs[k] = true
				switch {
				case k == "class":
					for _, c := range strings.Fields(strings.ToLower(a.Val)) {
						d.classes[c] = true
					}
				case k == "id":
					d.ids[strings.ToLower(strings.TrimSpace(a.Val))] = true
				case k == "srcset" || k == "data-srcset":
					for _, cand := range strings.Split(a.Val, ",") {
						if f := strings.Fields(cand); len(f) > 0 {
							addRef(f[0], resource)
						}
					}
				case urlAttrs[k]:
					addRef(a.Val, resource)
				case k == "content" && n.Data == "meta":
					if v := strings.TrimSpace(a.Val); strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
						addRef(v, true)
					}
				}
			}
			if n.Data == "script" && attrOf(n, "src") == "" && n.FirstChild != nil {
				typ := strings.ToLower(strings.TrimSpace(attrOf(n, "type")))
				if typ == "" || strings.Contains(typ, "javascript") || typ == "module" {
					src := strings.ToLower(n.FirstChild.Data)
					inline.WriteString(src)
					inline.WriteByte('\n')
					code.WriteString(outsideLiterals(src))
					code.WriteByte('\n')
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range p.Doc.Nodes {
		walk(n)
	}
	d.code, d.inline, d.comments = code.String(), inline.String(), comments.String()
	return d
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// outsideLiterals blanks the string literals and comments of a script, so
// that what remains is code: identifiers, assignments, calls.
func outsideLiterals(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(`""`)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return b.String()
			}
			i += j - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return b.String()
			}
			i += j + 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// documents returns the homepage and the other fetched HTML pages that
// answered 2xx, homepage first.
func documents(site *fetch.Site, o owner) []document {
	var docs []document
	if site.Home != nil && site.Home.OK() {
		docs = append(docs, newDocument(site.Home, site.HomePage, o))
	}
	for _, r := range site.Pages {
		if p := site.Page(r); p != nil && r.OK() {
			docs = append(docs, newDocument(r, p, o))
		}
	}
	return docs
}

// Detect recognises the technologies of a fetched site: the fingerprint
// database over the homepage and the sampled pages, then the in-house
// table, which weighs every signal and decides the platform triple. When
// the table names no CMS, a content management system the database
// recognised from strong evidence (a generator tag, a header, a cookie)
// is the CMS.
func Detect(site *fetch.Site) Detection {
	o := newOwner(site)
	docs := documents(site, o)
	var det Detection

	found := map[string]fpFound{}
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
		t, foreign := evaluate(r, docs, probes, found)
		if r.role != RoleOther && len(foreign) > 0 && t.Score == 0 {
			det.Notes = append(det.Notes, fmt.Sprintf("%s: %s only in URLs of other sites (%s)", r.name, strings.Join(foreign, ", "), foreignHosts(r, docs)))
		}
		if !t.accepted() {
			if r.role != RoleOther && t.Score >= minScore {
				det.Notes = append(det.Notes, fmt.Sprintf("%s: a single weak signal (%s)", r.name, strings.Join(t.Evidence, ", ")))
			}
			continue
		}
		if f, ok := found[fpName(r)]; ok {
			t.Version = f.version
		}
		techs = append(techs, &t)
		byName[r.name] = &t
	}
	// Everything else the fingerprint database saw, at the confidence one
	// database match carries. A content management system among them may
	// name the platform when the table names none.
	names := make([]string, 0, len(found))
	for name := range found {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := found[name]
		if byName[name] != nil || fingerprintNamesOfRules[name] || notATechnology[name] {
			continue
		}
		t := &Tech{Name: name, Version: f.version, Categories: cats(name), Score: fpWeight, Evidence: []string{f.what()}, Strong: f.strong()}
		if isCMS(t.Categories) {
			t.Class = fpClasses[name]
		}
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
			if t.Role != role || subsumed[t.Name] || t.implied {
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
	if det.CMS == nil {
		det.CMS = fingerprintCMS(techs)
	}

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

// fpPluginCategories mark database entries that live inside another
// platform (a plugin, a shop app, a widget): never the site's CMS.
var fpPluginCategories = []string{"WordPress plugins", "Shopify apps", "Widgets", "Payment processors", "Page builders"}

func isCMS(categories []string) bool {
	hit := false
	for _, c := range categories {
		if slices.Contains(fpPluginCategories, c) {
			return false
		}
		hit = hit || slices.Contains(fpCMSCategories, c)
	}
	return hit
}

// fingerprintCMS picks the CMS among the database's own recognitions:
// strong evidence only, CMS before shop, blog and wiki categories, then by
// name for a stable answer.
func fingerprintCMS(techs []*Tech) *Tech {
	var best *Tech
	rank := func(t *Tech) int {
		for i, c := range fpCMSCategories {
			if slices.Contains(t.Categories, c) {
				return i
			}
		}
		return len(fpCMSCategories)
	}
	for _, t := range techs {
		if rulesByName[t.Name] != nil || !t.Strong || !isCMS(t.Categories) {
			continue
		}
		if best == nil || rank(t) < rank(best) || (rank(t) == rank(best) && t.Name < best.Name) {
			best = t
		}
	}
	if best == nil {
		return nil
	}
	c := *best
	c.Role = RoleCMS
	return &c
}

// evaluate sums the weights of a rule's signals that match any document.
// foreign names the asset signals whose path appeared only in URLs of
// other sites.
func evaluate(r *rule, docs []document, probes []http.Header, found map[string]fpFound) (Tech, []string) {
	t := Tech{Name: r.name, Categories: r.categories, Role: r.role, Class: r.class, BotManagement: r.botManagement, Headless: r.headless}
	var foreign []string
	places := map[where]bool{}
	for _, s := range r.signals {
		ok, example, strong := matches(s, r, docs, probes, found)
		if !ok {
			if s.where == inAsset && seenElsewhere(s, docs) {
				foreign = append(foreign, strings.TrimSuffix(s.what, " on the site's own host"))
			}
			continue
		}
		t.Score += s.weight
		what := s.what
		if example != "" {
			what += " (" + example + ")"
		}
		t.Evidence = append(t.Evidence, what)
		t.Strong = t.Strong || strong
		if s.where != inFingerprint {
			places[s.where] = true
		}
	}
	t.kinds = len(places)
	t.Score = min(t.Score, 100)
	if len(t.Evidence) == 1 && !t.Strong {
		if f, ok := found[fpName(r)]; ok && len(f.kinds) == 0 {
			t.implied = true
		}
	}
	return t, foreign
}

// matches reports whether a signal matches, an example of what matched
// where it helps the reader, and whether the match is strong.
func matches(s signal, r *rule, docs []document, probes []http.Header, found map[string]fpFound) (bool, string, bool) {
	strong := s.weight >= strongWeight
	switch s.where {
	case inFingerprint:
		name := s.key
		if name == "" {
			name = r.name
		}
		f, ok := found[name]
		return ok, strings.TrimSuffix(strings.TrimPrefix(f.what(), "fingerprint database ("), ")"), ok && f.strong()
	case inBotProbe:
		for _, h := range probes {
			if headerMatches(h, s) {
				return true, "", strong
			}
		}
		return false, "", false
	}
	for _, d := range docs {
		switch s.where {
		case inHeader:
			if headerMatches(d.headers, s) {
				return true, "", strong
			}
		case inCookie:
			for c := range d.cookies {
				if strings.HasPrefix(c, s.key) {
					return true, "", strong
				}
			}
		case inGenerator:
			for _, g := range d.generators {
				if strings.HasPrefix(g, s.contains) {
					return true, "", strong
				}
			}
		case inAsset:
			for _, rf := range d.refs {
				if rf.own && strings.Contains(rf.path, s.contains) {
					return true, clipExample(rf.path), strong
				}
			}
		case inHost:
			for _, rf := range d.refs {
				if rf.resource && strings.Contains(rf.hostPath, s.contains) {
					return true, "", strong
				}
			}
		case inClass:
			if family(d.classes, s.contains) {
				return true, "", strong
			}
		case inAttr:
			if family(d.attrs, s.contains) {
				return true, "", strong
			}
		case inElement:
			if d.elements[s.contains] {
				return true, "", strong
			}
		case inID:
			if d.ids[s.contains] {
				return true, "", strong
			}
		case inCode:
			if strings.Contains(d.code, s.contains) {
				return true, "", strong
			}
		case inComment:
			if strings.Contains(d.comments, s.contains) {
				return true, "", strong
			}
		case inScript:
			for _, src := range d.scripts {
				if strings.Contains(src, s.contains) {
					return true, "", strong
				}
			}
			if strings.Contains(d.inline, s.contains) {
				return true, "", strong
			}
		}
	}
	return false, "", false
}

// family reports a token of the set equal to name or extending it with
// "-" or "_" ("vc_row" and "vc_row-fluid"; not "menu-item-object-section"
// for "ct-section").
func family(set map[string]bool, name string) bool {
	if set[name] {
		return true
	}
	for t := range set {
		if len(t) > len(name) && strings.HasPrefix(t, name) && (t[len(name)] == '-' || t[len(name)] == '_') {
			return true
		}
	}
	return false
}

// seenElsewhere reports an asset path present only in URLs of other sites.
func seenElsewhere(s signal, docs []document) bool {
	for _, d := range docs {
		for _, rf := range d.refs {
			if !rf.own && strings.Contains(rf.path, s.contains) {
				return true
			}
		}
	}
	return false
}

// foreignHosts names up to three hosts whose URLs carried a rule's asset
// paths.
func foreignHosts(r *rule, docs []document) string {
	var hosts []string
	for _, s := range r.signals {
		if s.where != inAsset {
			continue
		}
		for _, d := range docs {
			for _, rf := range d.refs {
				if !rf.own && strings.Contains(rf.path, s.contains) && !slices.Contains(hosts, rf.host) {
					hosts = append(hosts, rf.host)
				}
			}
		}
	}
	sort.Strings(hosts)
	if len(hosts) > 3 {
		hosts = append(hosts[:3], "…")
	}
	return strings.Join(hosts, ", ")
}

func clipExample(p string) string {
	if len(p) > 60 {
		return p[:60] + "…"
	}
	return p
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
