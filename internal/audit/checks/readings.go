package checks

// This file holds the shared readings: what the evaluators of several
// pillars read from a scan (the site, its page sets, its URLs, the
// homepage's robots directives) and the small word, number and brand
// helpers they phrase findings with. A helper used by one pillar only
// lives in that pillar's file.

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// Readings of the input.

// siteOf never returns nil, so evaluators can read fields of a site that
// was not fetched at all.
func siteOf(in *Input) *fetch.Site {
	if in == nil || in.Site == nil {
		return &fetch.Site{}
	}
	return in.Site
}

// nowOf is the scan's clock; a zero clock falls back to the wall clock so
// date comparisons never run against the year 1.
func nowOf(in *Input) time.Time {
	if in == nil || in.Now.IsZero() {
		return time.Now()
	}
	return in.Now
}

// The verdicts of checks that have nothing to read.
const (
	naNoHome     = "The homepage is not an HTML document that could be parsed, so there is nothing to measure."
	naNoReadable = "No fetched page has readable text to structure; the readable-text check says why."
)

// sitePages returns the parsed pages of the given purposes; a missing site
// yields none.
func sitePages(in *Input, purposes ...fetch.Purpose) []*page.Page {
	if in == nil || in.Site == nil {
		return nil
	}
	var out []*page.Page
	for _, p := range purposes {
		out = append(out, in.Pages(p)...)
	}
	return out
}

// everyPage is the homepage and every parsed extra page.
func everyPage(in *Input) []*page.Page {
	if in == nil || in.Site == nil {
		if in != nil && in.Home != nil {
			return []*page.Page{in.Home}
		}
		return nil
	}
	return in.ContentPages()
}

// articlePages are the sampled article pages that are articles. The
// fetcher picks them by URL, which also catches blog indexes such as
// /blog/news; a page whose path is the parent of another sampled article,
// or that holds three or more <article> elements, is a listing and left out.
func articlePages(in *Input) []*page.Page {
	all := sitePages(in, fetch.Article)
	var out []*page.Page
	for _, p := range all {
		if !isListing(p, all) {
			out = append(out, p)
		}
	}
	return out
}

// isListing reports a sampled article page that is really a listing.
func isListing(p *page.Page, siblings []*page.Page) bool {
	if p.Doc != nil && p.Doc.Find("article").Length() >= 3 {
		return true
	}
	if p.URL == nil {
		return false
	}
	parent := strings.TrimSuffix(p.URL.Path, "/") + "/"
	for _, o := range siblings {
		if o != p && o.URL != nil && len(o.URL.Path) > len(parent) && strings.HasPrefix(o.URL.Path, parent) {
			return true
		}
	}
	return false
}

// How much main text a page carries, in words.
const (
	minSSRWords    = 300 // enough main text to answer from
	sparseSSRWords = 100 // below this a page is all but empty
)

// minReadableWords is the visible text below which a page has nothing to
// structure: its emptiness is ssr_text_content's finding, not a heading or
// passage problem to count again.
const minReadableWords = 20

// readable keeps the pages with enough visible text to structure.
func readable(pages []*page.Page) []*page.Page {
	var out []*page.Page
	for _, p := range pages {
		if p != nil && page.HasWords(p.Text, minReadableWords) {
			out = append(out, p)
		}
	}
	return out
}

// answerPages are the readable pages that answer questions: the homepage,
// the sampled articles and the product page.
func answerPages(in *Input) []*page.Page {
	var out []*page.Page
	if in.Home != nil {
		out = append(out, in.Home)
	}
	out = append(out, articlePages(in)...)
	return readable(append(out, sitePages(in, fetch.Product)...))
}

// copyPages are the readable pages whose body copy is judged: the sampled
// articles, or the homepage when no article was fetched.
func copyPages(in *Input) []*page.Page {
	if arts := readable(articlePages(in)); len(arts) > 0 {
		return arts
	}
	if in.Home != nil {
		return readable([]*page.Page{in.Home})
	}
	return nil
}

// keyPage describes the first fetched page of a purpose as an evidence
// row whose "page" names the purpose.
func keyPage(in *Input, p fetch.Purpose) (row map[string]any, ok bool, parsed *page.Page) {
	row = map[string]any{"page": string(p), "found": false}
	if in.Site == nil {
		return row, false, nil
	}
	rs := in.Site.PagesFor(p)
	if len(rs) == 0 || rs[0] == nil {
		return row, false, nil
	}
	r := rs[0]
	row["found"] = true
	row["url"] = r.FinalURL
	row["status"] = r.Status
	row["linked_from_home"] = linkedFromHome(in, r.URL) || linkedFromHome(in, r.FinalURL)
	if r.Err != nil {
		row["error"] = r.ErrorText()
	}
	return row, r.OK(), in.Site.Page(r)
}

// linkedFromHome reports whether the homepage links a URL (fragment and
// trailing slash ignored).
func linkedFromHome(in *Input, target string) bool {
	if in.Home == nil {
		return false
	}
	norm := func(s string) string {
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		return strings.TrimSuffix(strings.ToLower(s), "/")
	}
	t := norm(target)
	for _, l := range in.Home.Links {
		if l.Href != "" && norm(l.Href) == t {
			return true
		}
	}
	return false
}

// noPagesAtAll reports a scan with neither a parsed homepage nor any
// other fetched page.
func noPagesAtAll(in *Input) bool {
	return in.Home == nil && (in.Site == nil || len(in.Site.Pages) == 0)
}

// addressOf is the URL a page was parsed at, "" when unknown.
func addressOf(p *page.Page) string {
	if p == nil || p.URL == nil {
		return ""
	}
	return p.URL.String()
}

// graphOf is a page's schema.org graph; nil for no page.
func graphOf(p *page.Page) *jsonld.Graph {
	if p == nil {
		return nil
	}
	return p.Graph
}

// fetchFailed reports a fetch that got no usable answer; a body cut at
// the size limit still is one.
func fetchFailed(r *fetch.Response) bool {
	return r == nil || (r.Err != nil && !errors.Is(r.Err, fetch.ErrTooLarge))
}

// statusText says how a fetch ended, to finish a sentence: "answered
// HTTP 404", "failed (…)", "was not fetched".
func statusText(r *fetch.Response) string {
	if r == nil {
		return "was not fetched"
	}
	if r.Err != nil {
		return "failed (" + r.ErrorText() + ")"
	}
	return fmt.Sprintf("answered HTTP %d", r.Status)
}

// chainRows is a redirect chain as evidence rows.
func chainRows(rs []fetch.Redirect) []map[string]any {
	out := make([]map[string]any, 0, len(rs))
	for _, r := range rs {
		out = append(out, map[string]any{"url": r.URL, "status": r.Status})
	}
	return out
}

// normURL canonicalizes a URL for equality: lower-case scheme and host,
// default ports and fragments dropped, an empty path as "/".
func normURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if p := u.Port(); p != "" && (p != "443" || u.Scheme != "https") && (p != "80" || u.Scheme != "http") {
		host += ":" + p
	}
	u.Host = host
	u.Fragment = ""
	u.RawFragment = ""
	if u.Path == "" {
		u.Path = "/"
		u.RawPath = ""
	}
	return u.String()
}

// sameURL reports two non-empty URLs that normalize alike.
func sameURL(a, b string) bool { return a != "" && b != "" && normURL(a) == normURL(b) }

// hostKey is a host without "www." for same-site comparisons.
func hostKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// siteHost is the site's host as the homepage finally answered it.
func siteHost(in *Input) string {
	s := siteOf(in)
	if s.Home != nil && s.Home.FinalURL != "" {
		return hostKey(s.Home.FinalURL)
	}
	if s.Target != nil {
		return strings.TrimPrefix(strings.ToLower(s.Target.Hostname()), "www.")
	}
	return ""
}

// Who was turned away at the homepage (see fetch.HomeAccess): GeoScan's
// own user agent, a browser, the AI crawler probes.

// accessRows is fetch.HomeAccess as evidence rows.
func accessRows(s *fetch.Site) []map[string]any {
	var rows []map[string]any
	for _, a := range s.HomeAccess() {
		rows = append(rows, map[string]any{
			"requester": a.Requester, "role": a.Role, "retry": a.Retry, "status": a.Status,
			"refused": a.Refusal != "", "refusal": a.Refusal, "error": a.Error,
		})
	}
	return nonNilRows(rows)
}

// served reports an answer that let its requester in.
func served(r *fetch.Response) bool {
	return r != nil && !fetchFailed(r) && r.Status > 0 && r.Status < 400 && fetch.Refusal(r) == ""
}

// refusalText says why a response turned its requester away: the
// refusal fetch.Refusal names, or a client error status.
func refusalText(r *fetch.Response) string {
	if why := fetch.Refusal(r); why != "" {
		return why
	}
	if r != nil && r.Err == nil && r.Status >= 400 && r.Status < 500 {
		return fmt.Sprintf("HTTP %d", r.Status)
	}
	return ""
}

// The homepage's robots directives, from its meta tags and headers.

// robotsDirective is one directive of a robots meta tag or X-Robots-Tag.
type robotsDirective struct {
	source string // "meta robots", "meta googlebot", "X-Robots-Tag"
	agent  string // the user agent it is limited to, "" for all
	name   string // lower case
	value  string
}

func (d robotsDirective) String() string {
	s := d.source + ": "
	if d.agent != "" && d.source == "X-Robots-Tag" {
		s += d.agent + ": "
	}
	s += d.name
	if d.value != "" {
		s += ":" + d.value
	}
	return s
}

// robotsDirectiveNames take a value after a colon; any other word before
// a colon in X-Robots-Tag is a user agent.
var robotsDirectiveNames = map[string]bool{"max-snippet": true, "max-image-preview": true, "max-video-preview": true, "unavailable_after": true}

func parseRobotsDirectives(source, agent, content string) []robotsDirective {
	var out []robotsDirective
	for i, part := range strings.Split(content, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, hasColon := strings.Cut(part, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		if i == 0 && hasColon && source == "X-Robots-Tag" && !robotsDirectiveNames[name] {
			agent = name
			rest := strings.TrimSpace(value)
			if rest == "" {
				continue
			}
			name, value, _ = strings.Cut(rest, ":")
			name = strings.ToLower(strings.TrimSpace(name))
		}
		out = append(out, robotsDirective{source: source, agent: agent, name: name, value: strings.TrimSpace(value)})
	}
	return out
}

// homeRobotsDirectives collects the directives of the homepage's robots,
// googlebot and bingbot meta tags and X-Robots-Tag headers.
func homeRobotsDirectives(in *Input) (ds []robotsDirective, metas map[string][]string, headers []string) {
	metas = map[string][]string{}
	if p := in.Home; p != nil {
		for _, key := range []string{"robots", "googlebot", "bingbot"} {
			for _, v := range p.Meta[key] {
				metas[key] = append(metas[key], v)
				agent := key
				if key == "robots" {
					agent = ""
				}
				ds = append(ds, parseRobotsDirectives("meta "+key, agent, v)...)
			}
		}
	}
	if h := siteOf(in).Home; h != nil && h.Header != nil {
		for _, v := range h.Header.Values("X-Robots-Tag") {
			headers = append(headers, v)
			ds = append(ds, parseRobotsDirectives("X-Robots-Tag", "", v)...)
		}
	}
	return ds, metas, headers
}

// Phrasing findings.

// andList joins names as "a, b and c".
func andList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// plural phrases a count with its noun: "no pages", "1 page", "3 pages".
func plural(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// byteCount phrases a size: "0 bytes", "1 byte", "86 bytes".
func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// only phrases a count that is too small: "no words", "only 1 word",
// "only 3 words".
func only(n int, one, many string) string {
	if n == 0 {
		return plural(n, one, many)
	}
	return "only " + plural(n, one, many)
}

// ofTotal phrases a part of a whole, the noun (and the verb, when one or
// many carries it) agreeing with the whole: "0 of 1 page has", "2 of 3
// pages have".
func ofTotal(part, whole int, one, many string) string {
	if whole == 1 {
		return fmt.Sprintf("%d of 1 %s", part, one)
	}
	return fmt.Sprintf("%d of %d %s", part, whole, many)
}

// fewOf phrases a part of a whole that is too small: "only 2 of 9
// images", and "0 of 9 images" rather than "only 0".
func fewOf(part, whole int, one, many string) string {
	if part == 0 {
		return ofTotal(part, whole, one, many)
	}
	return "only " + ofTotal(part, whole, one, many)
}

// capFirst starts a sentence with a phrase: "All 3 pages".
func capFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// allOf names every item of a group: "the page" for one, "all 3 pages"
// for more.
func allOf(n int, one, many string) string {
	if n == 1 {
		return "the " + one
	}
	return fmt.Sprintf("all %d %s", n, many)
}

// theN names a group: "the page" for one, "the 3 pages" for more.
func theN(n int, one, many string) string {
	if n == 1 {
		return "the " + one
	}
	return fmt.Sprintf("the %d %s", n, many)
}

// excerpt shortens s to n runes, marking the cut.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// firstN keeps at most n items so evidence stays readable.
func firstN[T any](list []T, n int) []T {
	if len(list) > n {
		return list[:n]
	}
	return list
}

// nonNil keeps evidence lists as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// nonNilRows is nonNil for evidence tables.
func nonNilRows(s []map[string]any) []map[string]any {
	if s == nil {
		return []map[string]any{}
	}
	return s
}

// sortedKeys lists a map's keys in order, for output that does not
// depend on map iteration.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Numbers and words.

// percent is 100·part/whole rounded to one decimal; 0 when whole is 0.
func percent(part, whole int) float64 {
	if whole <= 0 {
		return 0
	}
	return roundTenth(100 * float64(part) / float64(whole))
}

// roundTenth rounds to one decimal; NaN and infinities become 0 so
// evidence stays valid JSON.
func roundTenth(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*10) / 10
}

// numberRE finds the numbers of a text: "1,299.00", "40%", "7".
var numberRE = regexp.MustCompile(`\d[\d.,]*\d%?|\d%?`)

// tokens lower-cases s and splits it into runs of letters and digits.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// connectors are the words for "and" that names write in place of "&" or
// "+": "Crumb & Kettle" is "crumb-and-kettle" as a domain.
var connectors = map[string]bool{"and": true, "und": true, "et": true, "y": true, "e": true, "en": true, "og": true, "och": true, "n": true}

// nameTokens are the tokens of a name with the connectors between two
// other words left out, so "Crumb & Kettle", "Crumb and Kettle", "Crumb
// 'n' Kettle" and "crumb-and-kettle" read alike; a leading or trailing
// "and" stays.
func nameTokens(s string) []string {
	ts := tokens(s)
	out := ts[:0:0]
	for i, t := range ts {
		if connectors[t] && i > 0 && i < len(ts)-1 {
			continue
		}
		out = append(out, t)
	}
	return out
}

// compact is s lower-cased with everything but letters and digits (and
// the connectors of nameTokens) removed: "Acme, Inc." and "ACME inc"
// compare equal as "acmeinc", "Crumb & Kettle" and "Crumb and Kettle" as
// "crumbkettle".
func compact(s string) string { return strings.Join(nameTokens(s), "") }

// tokenCoverage is the share of want's tokens (connectors between words
// left out) present in have.
func tokenCoverage(want string, have map[string]bool) float64 {
	ts := nameTokens(want)
	if len(ts) == 0 {
		return 0
	}
	n := 0
	for _, t := range ts {
		if have[t] {
			n++
		}
	}
	return float64(n) / float64(len(ts))
}

// tokenSet is the set of tokens of the texts.
func tokenSet(texts ...string) map[string]bool {
	set := map[string]bool{}
	for _, t := range texts {
		for _, w := range tokens(t) {
			set[w] = true
		}
	}
	return set
}

// stopwords are frequent function words of a few languages, enough to
// tell which of them a page is written in; words shared by several of
// these languages are left out.
var stopwords = map[string][]string{
	"en": {"the", "and", "of", "to", "is", "for", "that", "with", "you", "are", "on", "this", "your", "we", "our", "it", "be", "from", "by", "or", "can", "at", "have"},
	"de": {"der", "die", "und", "das", "ist", "nicht", "mit", "sie", "ein", "eine", "für", "auf", "den", "dem", "zu", "von", "sich", "wir", "auch", "oder", "werden", "ihre"},
	"fr": {"le", "les", "et", "des", "est", "une", "du", "pour", "dans", "qui", "sur", "vous", "nous", "pas", "avec", "au", "ce", "sont", "plus", "votre"},
	"es": {"el", "los", "las", "y", "es", "por", "para", "con", "una", "del", "su", "sus", "al", "como", "más", "pero", "este", "esta", "también"},
	"it": {"il", "di", "che", "è", "per", "sono", "non", "della", "delle", "gli", "nel", "più", "questo", "anche", "alla", "degli"},
	"pt": {"os", "do", "da", "em", "um", "uma", "não", "são", "é", "mais", "seu", "sua", "nos", "dos", "das", "ao", "você", "pelo"},
	"nl": {"het", "een", "van", "dat", "op", "te", "voor", "met", "zijn", "niet", "ook", "je", "wij", "ons", "onze", "naar", "worden", "bij", "uw"},
}

// stopwordLangs are the languages of each word of stopwords.
var stopwordLangs = func() map[string][]string {
	m := map[string][]string{}
	for lang, list := range stopwords {
		for _, w := range list {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// Brands and schema.org types.

// brandKey reduces a brand to the form titles and names are compared in:
// letters and digits only, without "and" between words (see nameTokens)
// or legal suffixes, and for a domain-like
// brand ("example.com", or the default "copperkettle-shop" taken from the
// domain) without the domain and the generic words sites add to names.
func brandKey(brand string) string {
	b := strings.TrimSpace(brand)
	if b == "" {
		return ""
	}
	domainLike := !strings.ContainsAny(b, " \t")
	if domainLike && strings.Contains(b, ".") {
		host := b
		if u, err := url.Parse(b); err == nil && u.Host != "" {
			host = u.Host
		}
		host = strings.TrimPrefix(strings.ToLower(host), "www.")
		if i := strings.IndexByte(host, '.'); i > 0 {
			b = host[:i]
		}
	}
	ts := nameTokens(b)
	for len(ts) > 1 && (legalSuffixes[ts[len(ts)-1]] || (domainLike && domainAffixes[ts[len(ts)-1]])) {
		ts = ts[:len(ts)-1]
	}
	for domainLike && len(ts) > 1 && domainAffixes[ts[0]] {
		ts = ts[1:]
	}
	return strings.Join(ts, "")
}

// legalSuffixes end company names without being part of the brand.
var legalSuffixes = map[string]bool{
	"inc": true, "llc": true, "ltd": true, "limited": true, "gmbh": true, "corp": true,
	"corporation": true, "co": true, "company": true, "ag": true, "sa": true, "sas": true, "sarl": true, "bv": true, "nv": true, "plc": true, "srl": true, "spa": true, "oy": true, "ab": true, "as": true, "kg": true, "pty": true,
}

// domainAffixes are words domains add around a brand name
// ("get-acme", "acme-app", "acme-shop").
var domainAffixes = map[string]bool{
	"get": true, "try": true, "use": true, "join": true, "go": true, "my": true, "the": true,
	"app": true, "hq": true, "shop": true, "store": true, "online": true, "docs": true, "official": true, "web": true, "site": true, "io": true, "inc": true,
}

// titleSeparators split "Topic | Brand" style values into their parts.
var titleSeparators = regexp.MustCompile(`\s+[|–—·:-]\s+|\s*\|\s*`)

// sameBrand reports whether a text carries the brand: it contains the
// brand key, one of its parts is a short form of the brand ("Acme" for
// "Acme Software"), or it shares most of the key's leading letters, as
// "Copper Kettle Coffee" does with a brand derived from the domain
// "copperkettleshop".
func sameBrand(key, value string) bool {
	v := compact(value)
	if key == "" || v == "" {
		return false
	}
	if strings.Contains(v, key) {
		return true
	}
	for _, part := range titleSeparators.Split(value, -1) {
		if vk := brandKey(part); len(vk) >= 3 && strings.HasPrefix(key, vk) {
			return true
		}
	}
	common := 0
	for common < len(key) && common < len(v) && key[common] == v[common] {
		common++
	}
	return common >= 5 && common*10 >= len(key)*6
}

// Types that identify who stands behind a site. LocalBusiness subtypes are
// many; the common ones are listed so a Restaurant or Dentist counts.
var (
	organizationTypes = []string{
		"Organization", "Corporation", "NGO", "EducationalOrganization", "GovernmentOrganization",
		"NewsMediaOrganization", "MedicalOrganization", "SportsOrganization", "OnlineBusiness", "OnlineStore", "Airline",
		"Consortium", "CollegeOrUniversity", "School", "ResearchOrganization", "PerformingGroup", "LibrarySystem",
	}
	localBusinessTypes = []string{
		"LocalBusiness", "Restaurant", "FoodEstablishment", "CafeOrCoffeeShop", "Bakery", "BarOrPub",
		"Store", "ClothingStore", "ProfessionalService", "LegalService", "Attorney", "Notary", "Dentist", "Physician",
		"MedicalBusiness", "MedicalClinic", "Pharmacy", "HomeAndConstructionBusiness", "Plumber", "Electrician",
		"HVACBusiness", "RoofingContractor", "GeneralContractor", "AutomotiveBusiness", "AutoRepair", "AutoDealer",
		"FinancialService", "AccountingService", "InsuranceAgency", "HealthAndBeautyBusiness", "BeautySalon", "HairSalon",
		"DaySpa", "LodgingBusiness", "Hotel", "RealEstateAgent", "TravelAgency", "ExerciseGym", "SportsActivityLocation",
		"ChildCare", "Library", "EntertainmentBusiness", "EmploymentAgency", "Locksmith", "MovingCompany", "VeterinaryCare",
	}
	identityTypes = slices.Concat(organizationTypes, localBusinessTypes, []string{"Person"})
	articleTypes  = []string{
		"Article", "BlogPosting", "NewsArticle", "TechArticle", "Report", "ScholarlyArticle",
		"AnalysisNewsArticle", "ReportageNewsArticle", "OpinionNewsArticle", "ReviewNewsArticle", "LiveBlogPosting", "SocialMediaPosting", "HowToArticle",
	}
	productTypes = []string{
		"Product", "ProductGroup", "IndividualProduct", "ProductModel", "Service", "FinancialProduct",
		"SoftwareApplication", "WebApplication", "MobileApplication", "Course", "Vehicle", "Car",
	}
)
