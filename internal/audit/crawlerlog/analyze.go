package crawlerlog

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/geoscan/geoscan/internal/audit/robots"
)

// Options bound and direct one analysis.
type Options struct {
	// Domain is the site's host (e.g. "www.example.com"). Lines whose host
	// field names another host are counted as other_host, not analysed;
	// "example.com" and "www.example.com" count as the same site, and a
	// CloudFront distribution name (*.cloudfront.net) as no host. Empty:
	// every line is analysed.
	Domain string
	// Resolver verifies by reverse DNS; nil: those hits are not checked.
	Resolver Resolver
	// MaxLookups bounds the reverse-DNS verifications of one analysis
	// (default 300); beyond it hits are not checked.
	MaxLookups int
	// Ranges are the published lists; nil: the embedded ones.
	Ranges *Ranges
	// MaxLineBytes: a longer line is skipped without being held whole and
	// counted unparsed "line_too_long" (default 64 KiB).
	MaxLineBytes int
	// MaxPaths bounds the distinct paths kept per bot (default 5000); the
	// AI-search path set keeps ten times as many. Beyond it hits are
	// counted but their paths not kept, and the result says it was cut.
	MaxPaths int
	// Workers is how many goroutines parse lines (default GOMAXPROCS, at
	// most 4); 1 parses on the caller's goroutine.
	Workers int
}

func (o Options) withDefaults() Options {
	if o.MaxLookups <= 0 {
		o.MaxLookups = DefaultMaxLookups
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.MaxPaths <= 0 {
		o.MaxPaths = DefaultMaxPaths
	}
	if o.Workers <= 0 {
		o.Workers = min(runtime.GOMAXPROCS(0), maxWorkers)
	}
	return o
}

// ErrCompressed reports a compressed file given as a log: the caller
// must decompress it first (gzip is the usual mistake: access.log.2.gz).
var ErrCompressed = errors.New("crawlerlog: the log is compressed")

// compressedMagic are the leading bytes of compressed and archive formats.
var compressedMagic = []struct{ name, magic string }{
	{"gzip", "\x1f\x8b"},
	{"zstd", "\x28\xb5\x2f\xfd"},
	{"bzip2", "BZh"},
	{"xz", "\xfd7zXZ\x00"},
	{"zip", "PK\x03\x04"},
}

// Analyze reads an access log (plain text; the caller has already
// un-gzipped it) line by line. A compressed stream is refused with
// ErrCompressed; a line that cannot be read is counted by reason and never
// fails the analysis. The error is ctx's or r's.
func Analyze(ctx context.Context, r io.Reader, opts Options) (Result, error) {
	return analyze(ctx, r, opts, batchBytes)
}

type analyzer struct {
	opts   Options
	ranges *Ranges
	tokens *tokenTable
	domain []byte // without "www." and port

	lineNo, lines, parsed int64
	reasons               map[string]*Unparsed
	formats               map[string]int64
	runFormat             string
	runCount              int64
	first, last           int64
	seen                  bool
	otherHost, otherHits  int64

	bots        []*botAcc // by tokens index
	searchPaths map[string]struct{}
	searchCut   bool

	w3c        *w3cFields // from the last #Fields directive
	cloudFront *w3cFields // CloudFront's column order, for headerless lines
	lastFamily byte       // 't' text, 'w' W3C: which is tried first
	dns        *dnsState  // shared by the workers of one analysis

	rec record
	// uaCache and uaCacheEncoded map a user agent as written (plain, or
	// URL-encoded by W3C and CloudFront logs) to its token index.
	uaCache, uaCacheEncoded map[string]int

	// Scratch space reused line after line.
	lastCLF               []byte
	lastCLFUnix           int64
	lastCLFOK             bool
	lastJSONTime          []byte
	lastJSONUnix          int64
	lastJSONOK            bool
	uaBuf, uaBuf2         []byte
	jsonBuf               bytes.Buffer
	jsonDec               jsontext.Decoder
	jsonOpts              []jsontext.Options
	jsRaw                 [factVercel + 1][]byte
	jsIP, jsStatus, jsURI []byte
	jsHost, jsUA, jsTime  []byte
}

func newAnalyzer(opts Options, dns *dnsState) *analyzer {
	return &analyzer{
		dns:            dns,
		opts:           opts,
		ranges:         opts.Ranges,
		tokens:         newTokenTable(),
		domain:         siteKey([]byte(opts.Domain)),
		uaCache:        map[string]int{},
		uaCacheEncoded: map[string]int{},
		reasons:        map[string]*Unparsed{},
		formats:        map[string]int64{},
		searchPaths:    map[string]struct{}{},
		cloudFront:     parseW3CFields(cloudFrontFields),
		lastFamily:     't',
		// Duplicate keys are not looked for and invalid UTF-8 is let
		// through: both cost time, and a log line is data either way.
		jsonOpts: []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)},
		bots:     make([]*botAcc, 0),
	}
}

func (a *analyzer) flushFormatRun() {
	if a.runCount > 0 {
		a.formats[a.runFormat] += a.runCount
	}
	a.runCount = 0
}

func (a *analyzer) unparsed(reason string) {
	u := a.reasons[reason]
	if u == nil {
		u = &Unparsed{Reason: reason, FirstLine: a.lineNo}
		a.reasons[reason] = u
	}
	u.Count++
}

// trimLine removes the spaces around a line and the NULs and byte order
// mark before it: a file truncated in place while a writer held it open
// (logrotate's copytruncate) starts with a run of NULs before the next
// line, and a file saved by a Windows editor with a UTF-8 byte order mark,
// which files joined with cat carry into the middle of the log.
func trimLine(line []byte) []byte {
	for len(line) > 0 && (line[0] == 0 || line[0] == ' ' || line[0] == '\t') {
		line = line[1:]
	}
	line = bytes.TrimPrefix(line, []byte("\uFEFF"))
	for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t') {
		line = line[:len(line)-1]
	}
	return line
}

// line reads one trimmed, non-blank line that is no W3C directive; no is
// its line number, w3c the #Fields directive in force.
func (a *analyzer) line(ctx context.Context, no int64, line []byte, w3c *w3cFields) {
	a.lineNo, a.w3c = no, w3c
	a.lines++
	rec := &a.rec
	var reason string
	switch {
	case line[0] == '{':
		reason = a.parseJSON(line, rec)
	case a.lastFamily == 'w':
		if reason = a.parseW3C(line, rec); reason == ReasonUnrecognized {
			if reason = a.parseText(line, rec); reason != ReasonUnrecognized {
				a.lastFamily = 't'
			}
		}
	default:
		if reason = a.parseText(line, rec); reason == ReasonUnrecognized {
			if reason = a.parseW3C(line, rec); reason != ReasonUnrecognized {
				a.lastFamily = 'w'
			}
		}
	}
	if reason == ReasonUnrecognized && binary(line) {
		reason = ReasonBinary
	}
	if reason != "" {
		a.unparsed(reason)
		return
	}
	a.parsed++
	// Formats come in runs: a run is counted in the map when it ends.
	if rec.format != a.runFormat {
		a.flushFormatRun()
		a.runFormat = rec.format
	}
	a.runCount++
	a.request(ctx, rec)
}

// tooLong counts a line over Options.MaxLineBytes.
func (a *analyzer) tooLong(no int64) {
	a.lineNo = no
	a.lines++
	a.unparsed(ReasonTooLong)
}

// binary reports a line with control bytes a text log never holds.
func binary(line []byte) bool {
	for _, c := range line {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

// request analyses one parsed request.
func (a *analyzer) request(ctx context.Context, rec *record) {
	if len(a.domain) > 0 && rec.host != nil && !a.sameSite(rec.host) {
		a.otherHost++
		return
	}
	if !a.seen || rec.unix < a.first {
		a.first = rec.unix
	}
	if !a.seen || rec.unix > a.last {
		a.last = rec.unix
	}
	a.seen = true
	idx := a.botIndex(rec)
	if idx < 0 {
		a.otherHits++
		return
	}
	b := a.bot(idx)
	o := a.verify(ctx, &b.verifier, rec.ip)
	b.hit(rec, o, a.opts.MaxPaths)
	if b.agent.Role == robots.Search && o != failed {
		a.searchPath(rec.path)
	}
}

// siteKey normalizes a host for comparison: no port, no trailing dot, no
// leading "www."; empty for "-".
func siteKey(h []byte) []byte {
	h = hostOnly(bytes.TrimSpace(h))
	h = bytes.TrimSuffix(h, []byte("."))
	if len(h) > 4 && bytes.EqualFold(h[:4], []byte("www.")) {
		h = h[4:]
	}
	if len(h) == 1 && h[0] == '-' {
		return nil
	}
	return h
}

// sameSite reports whether a line's host is the analysed site's, or no
// site at all (empty, or a CloudFront distribution's name).
func (a *analyzer) sameSite(host []byte) bool {
	h := siteKey(host)
	const edge = ".cloudfront.net"
	return len(h) == 0 || bytes.EqualFold(h, a.domain) ||
		len(h) > len(edge) && bytes.EqualFold(h[len(h)-len(edge):], []byte(edge))
}

// maxUACache bounds the user agents whose token is remembered, and
// maxUACacheLen the length of one: a log repeats a few hundred user agents
// millions of times, and a lookup costs less than reading the words.
const (
	maxUACache    = 4096
	maxUACacheLen = 512
)

// botIndex returns the index of the token a request's user agent names,
// or -1.
func (a *analyzer) botIndex(rec *record) int {
	if len(rec.ua) < 5 {
		return -1
	}
	cache, ua := a.uaCache, rec.ua
	if rec.uaEncoded {
		cache = a.uaCacheEncoded
	}
	if idx, ok := cache[string(ua)]; ok {
		return idx
	}
	if rec.uaEncoded {
		ua = a.decodeUA(ua)
	}
	idx := a.tokens.match(ua)
	if len(rec.ua) <= maxUACacheLen {
		if len(cache) >= maxUACache {
			clear(cache)
		}
		cache[string(rec.ua)] = idx
	}
	return idx
}

func (a *analyzer) bot(idx int) *botAcc {
	for len(a.bots) <= idx {
		a.bots = append(a.bots, nil)
	}
	if a.bots[idx] == nil {
		ag := a.tokens.agents[idx]
		a.bots[idx] = &botAcc{
			agent:    ag,
			verifier: newBotVerifier(ag.Token, a.ranges),
			pages:    map[string]*pageAcc{},
			refused:  map[string]*pageAcc{},
			days:     map[int64]*Day{},
		}
	}
	return a.bots[idx]
}

func (a *analyzer) searchPath(p []byte) {
	p = storedPath(p)
	if _, ok := a.searchPaths[string(p)]; ok {
		return
	}
	key := validUTF8(p)
	if _, ok := a.searchPaths[key]; ok {
		return
	}
	if len(a.searchPaths) >= 10*a.opts.MaxPaths {
		a.searchCut = true
		return
	}
	a.searchPaths[key] = struct{}{}
}

// storedPath cuts a path to MaxStoredPath bytes.
func storedPath(p []byte) []byte {
	if len(p) > MaxStoredPath {
		return p[:MaxStoredPath]
	}
	return p
}

// validUTF8 copies a path kept in the result, replacing invalid UTF-8.
func validUTF8(p []byte) string {
	if utf8.Valid(p) {
		return string(p)
	}
	return strings.ToValidUTF8(string(p), "\uFFFD")
}

// botAcc accumulates one token's hits.
type botAcc struct {
	agent    robots.Agent
	verifier botVerifier

	hits, verified, failed, notChecked, byDNS int64
	statuses                                  [600]int64
	first, last                               int64
	days                                      map[int64]*Day // by days since 1970
	daysCut                                   bool
	pages, refused                            map[string]*pageAcc
	pagesCut, refusedCut                      bool
	untracked                                 int64
}

type pageAcc struct {
	hits, verified int64
	statuses       []statusCount
}

type statusCount struct {
	status int
	n      int64
}

// maxRefusedTracked bounds the refused paths kept per bot.
const maxRefusedTracked = 2 * MaxRefusedShown

func (b *botAcc) hit(rec *record, o outcome, maxPaths int) {
	b.hits++
	ok := o == verifiedByList || o == verifiedByDNS
	switch o {
	case verifiedByList:
		b.verified++
	case verifiedByDNS:
		b.verified++
		b.byDNS++
	case failed:
		b.failed++
	default:
		b.notChecked++
	}
	b.statuses[rec.status]++
	if b.hits == 1 || rec.unix < b.first {
		b.first = rec.unix
	}
	if b.hits == 1 || rec.unix > b.last {
		b.last = rec.unix
	}
	day := rec.unix / 86400
	d := b.days[day]
	if d == nil {
		if len(b.days) >= MaxDays {
			b.daysCut = true
		} else {
			d = &Day{}
			b.days[day] = d
		}
	}
	if d != nil {
		d.Hits++
		if ok {
			d.VerifiedHits++
		}
	}
	path := storedPath(rec.path)
	if !countPage(b.pages, path, rec.status, ok, maxPaths) {
		b.pagesCut = true
		b.untracked++
	}
	if RefusalStatus(rec.status) && o != failed {
		if !countPage(b.refused, path, rec.status, ok, maxRefusedTracked) {
			b.refusedCut = true
		}
	}
}

// countPage counts a hit on path; false when the path is new and the map
// is full.
func countPage(m map[string]*pageAcc, path []byte, status int, verified bool, limit int) bool {
	p := m[string(path)]
	if p == nil {
		// A path that is not UTF-8 is kept under its repaired text.
		key := validUTF8(path)
		if p = m[key]; p == nil {
			if len(m) >= limit {
				return false
			}
			p = &pageAcc{}
			m[key] = p
		}
	}
	p.hits++
	if verified {
		p.verified++
	}
	for i := range p.statuses {
		if p.statuses[i].status == status {
			p.statuses[i].n++
			return true
		}
	}
	p.statuses = append(p.statuses, statusCount{status, 1})
	return true
}

func rfc3339(unix int64) string {
	return time.Unix(unix, 0).UTC().Format(time.RFC3339)
}

func (a *analyzer) result() Result {
	a.flushFormatRun()
	res := Result{
		Lines:                a.lines,
		ParsedLines:          a.parsed,
		UnparsedLines:        a.lines - a.parsed,
		Unparsed:             []Unparsed{},
		Formats:              a.formats,
		OtherHostLines:       a.otherHost,
		OtherHits:            a.otherHits,
		Bots:                 []Bot{},
		SearchPaths:          make([]string, 0, len(a.searchPaths)),
		SearchPathsTruncated: a.searchCut,
		Lookups:              a.dns.lookups,
		RangeLists:           a.ranges.Lists(),
	}
	if a.seen {
		res.FirstSeen, res.LastSeen = rfc3339(a.first), rfc3339(a.last)
	}
	for _, u := range a.reasons {
		res.Unparsed = append(res.Unparsed, *u)
	}
	slices.SortFunc(res.Unparsed, func(x, y Unparsed) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Reason, y.Reason))
	})
	for p := range a.searchPaths {
		res.SearchPaths = append(res.SearchPaths, p)
	}
	slices.Sort(res.SearchPaths)
	for _, b := range a.bots {
		if b != nil {
			res.Bots = append(res.Bots, b.result())
		}
	}
	slices.SortFunc(res.Bots, func(x, y Bot) int {
		return cmp.Or(cmp.Compare(y.Hits, x.Hits), cmp.Compare(x.Token, y.Token))
	})
	return res
}

func (b *botAcc) result() Bot {
	out := Bot{
		Token:          b.agent.Token,
		Owner:          b.agent.Owner,
		Role:           string(b.agent.Role),
		Hits:           b.hits,
		VerifiedHits:   b.verified,
		UnverifiedHits: b.hits - b.verified,
		Verification: Verification{
			Method:         b.verifier.method,
			FailedHits:     b.failed,
			NotCheckedHits: b.notChecked,
			ReverseDNSHits: b.byDNS,
		},
		Statuses:      map[int]int64{},
		Days:          make([]Day, 0, len(b.days)),
		DaysTruncated: b.daysCut,
		DistinctPaths: len(b.pages),
		UntrackedHits: b.untracked,
		FirstSeen:     rfc3339(b.first),
		LastSeen:      rfc3339(b.last),
	}
	for s, n := range b.statuses {
		if n > 0 {
			out.Statuses[s] = n
		}
	}
	for day, d := range b.days {
		d.Date = time.Unix(day*86400, 0).UTC().Format(time.DateOnly)
		out.Days = append(out.Days, *d)
	}
	slices.SortFunc(out.Days, func(x, y Day) int { return cmp.Compare(x.Date, y.Date) })
	out.Pages = topPages(b.pages, MaxPagesShown)
	out.PagesTruncated = b.pagesCut || len(b.pages) > len(out.Pages)
	out.Refused = topPages(b.refused, MaxRefusedShown)
	out.RefusedTruncated = b.refusedCut || len(b.refused) > len(out.Refused)
	return out
}

// topPages lists the n pages with most hits (ties by path).
func topPages(m map[string]*pageAcc, n int) []Page {
	out := make([]Page, 0, min(n, len(m)))
	for path, p := range m {
		pg := Page{Path: path, Hits: p.hits, VerifiedHits: p.verified, Statuses: map[int]int64{}}
		for _, s := range p.statuses {
			pg.Statuses[s.status] = s.n
		}
		out = append(out, pg)
	}
	slices.SortFunc(out, func(x, y Page) int {
		return cmp.Or(cmp.Compare(y.Hits, x.Hits), cmp.Compare(x.Path, y.Path))
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
