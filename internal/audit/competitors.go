package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/netguard"
)

// Competitors (Options.Competitors) are audited as the site is, at its
// page budget, so the report can set their rings beside its own, and
// their brands are read for in the answer engines' buyer answers (share
// of voice, mentions/share.go). A competitor is never asked about, never
// rendered, and keeps nothing but its result: no pages, no dossier, no
// snapshot. A competitor that cannot be read fails alone, with the
// reason; the audit goes on.
//
// Time: reading the site and its competitors shares Options.FetchBudget.
// The competitors are read once the site is, all at once, each within an
// equal share of the budget, FetchBudget/(1+N) for N competitors, and
// none past the end of the budget counted from the start of Run: reading
// them never takes the answer engines' time, and a slow competitor is
// cut off at its share. A whole-site audit's competitor crawls start
// once their homepages are judged and run alongside the rest of the
// audit, at the site's crawl options, bounded like the site's own crawl
// by ctx; Run returns once they end.
//
// Memory: the competitors' homepages and key pages are parsed and judged
// inside the audit's own reservation (sharedHold), which grows by each
// competitor's estimate (MemoryEstimate's rule) as it is parsed, asking
// again for the whole and holding nothing while it waits, as the site's
// own key pages do; once all are judged it is given back down to what
// the site needs. Their crawls' pages reserve one by one, as the site's
// do.

// The states of a competitor's audit.
const (
	CompetitorAudited = "audited"
	CompetitorFailed  = "failed"
)

// CompetitorResult is what the audit of one competitor found.
type CompetitorResult struct {
	// URL is the competitor's address as given; Host its host name.
	URL  string
	Host string
	// Brand is the name it is shown under and read for in answers: the
	// one given, else the name its homepage declares for itself (as
	// checks.DeclaredBrand reads it), else a readable name from its
	// registrable domain.
	Brand string
	// Status is CompetitorAudited or CompetitorFailed; Reason says, for
	// a failure, why in words for the report.
	Status string
	Reason string
	// PagesAudited is the HTML pages judged: the homepage and key pages,
	// or the whole-site audit's pages (Site).
	PagesAudited int
	// Scores are its homepage audit's, scored as an audit without an
	// answer engine is (the AI mention checks na) and judged from its
	// HTML alone; nil when it failed. The report sets them beside the
	// site's own scored on that footing.
	Scores *scoring.Result
	// Site is its whole-site audit (Options.MaxPages above 1), the
	// pages judged by the time it ended; nil otherwise.
	Site *SiteView

	// tracked says its brand is read for in the answers: it is not the
	// scanned site itself nor a competitor named twice.
	tracked bool
}

// competitorRun is the competitors' audits under way: their results,
// and their crawls still running.
type competitorRun struct {
	results []CompetitorResult
	aliases [][]string
	cancel  context.CancelFunc
	crawls  sync.WaitGroup
}

// auditCompetitors reads and judges the competitors' sites at once, once
// the site is read (mem holds what it needs; start is Run's start), and
// starts their crawls in a whole-site audit. It returns when their
// homepages are judged.
func auditCompetitors(ctx context.Context, target Target, opts Options, mem *memoryHold, start time.Time) *competitorRun {
	run := &competitorRun{}
	if len(opts.Competitors) == 0 {
		return run
	}
	ctx, run.cancel = context.WithCancel(ctx)
	run.results = make([]CompetitorResult, len(opts.Competitors))
	run.aliases = make([][]string, len(opts.Competitors))
	hold := &sharedHold{m: mem, base: mem.holding()}
	hold.need = hold.base
	share := opts.FetchBudget / time.Duration(len(opts.Competitors)+1)
	own := mentions.RegistrableDomain(target.URL.Hostname())
	first := map[string]int{}
	var wg sync.WaitGroup
	for i, c := range opts.Competitors {
		r := &run.results[i]
		r.Status = CompetitorFailed
		if c.URL == nil || c.URL.Hostname() == "" {
			r.Reason = "no address was given for it"
			continue
		}
		r.URL, r.Host = c.URL.String(), c.URL.Hostname()
		r.Brand = cmp.Or(strings.TrimSpace(c.BrandName), readableName(r.Host))
		run.aliases[i] = c.BrandAliases
		domain := mentions.RegistrableDomain(r.Host)
		if domain == own {
			r.Reason = "it is on the scanned site's own domain, " + own
			continue
		}
		if j, ok := first[domain]; ok {
			r.Reason = fmt.Sprintf("it is on the same domain as competitor %d, %s", j+1, opts.Competitors[j].URL)
			continue
		}
		first[domain] = i
		r.tracked = true
		if opts.Fetcher == nil {
			r.Reason = "it was not read: the audit was given a site already read, and no fetcher"
			continue
		}
		wg.Go(func() { run.audit(ctx, r, c, opts, hold, readEnd(opts, start, share)) })
	}
	wg.Wait()
	hold.trim()
	return run
}

// readEnd is when a competitor's read must end: its share of the fetch
// budget from now, and not after the budget's end; zero without a
// budget.
func readEnd(opts Options, start time.Time, share time.Duration) time.Time {
	if opts.FetchBudget <= 0 {
		return time.Time{}
	}
	end, last := time.Now().Add(share), start.Add(opts.FetchBudget)
	if last.Before(end) {
		return last
	}
	return end
}

// audit reads and judges one competitor into r, by end (zero: ctx
// alone), and in a whole-site audit starts its crawl.
func (run *competitorRun) audit(ctx context.Context, r *CompetitorResult, c Target, opts Options, hold *sharedHold, end time.Time) {
	if !end.IsZero() && !end.After(time.Now()) {
		r.Reason = "it was not read: no time was left of the scan's fetch budget once the site itself was read"
		return
	}
	fctx, cancel := ctx, context.CancelFunc(func() {})
	if !end.IsZero() {
		fctx, cancel = context.WithDeadlineCause(ctx, end, fetch.ErrBudget)
	}
	part := &partHold{s: hold}
	defer part.done()
	site, err := opts.Fetcher.SiteWith(fctx, c.URL, fetch.SiteOpts{BeforeParse: part.beforeParse})
	cancel()
	if err != nil {
		r.Reason = competitorFailure(ctx, err)
		return
	}
	// Judged as a scan of it would be by default: under the brand given,
	// else its registrable name.
	checkBrand := cmp.Or(strings.TrimSpace(c.BrandName), netguard.RegistrableName(r.Host))
	in := &checks.Input{Site: site, Home: site.HomePage, BrandName: checkBrand, BrandAliases: c.BrandAliases, Now: opts.now()}
	scores := Score(checks.Run(in))
	r.Scores = &scores
	if strings.TrimSpace(c.BrandName) == "" {
		if d := boundedName(checks.DeclaredBrand(in)); d != "" {
			r.Brand = d
		}
	}
	for _, p := range site.Parsed {
		if p != nil {
			r.PagesAudited++
		}
	}
	r.Status = CompetitorAudited
	if opts.MaxPages <= 1 {
		return
	}
	copts := opts
	copts.Pages, copts.Progress, copts.Renderer, copts.PreviousSite = nil, nil, nil, nil
	home := &fetch.Site{AuditedAs: site.AuditedAs}
	target := Target{URL: c.URL, BrandName: checkBrand, BrandAliases: c.BrandAliases}
	run.crawls.Go(func() {
		// Its error is ctx's end or a crawl that could not start: the
		// pages judged by then stand, or the homepage audit does.
		if view, _ := auditSite(ctx, target, copts, home, nil); view != nil {
			r.Site, r.PagesAudited = view, view.PagesAudited
		}
	})
}

// competitorFailure words why a competitor could not be read.
func competitorFailure(ctx context.Context, err error) string {
	var home *fetch.HomeError
	switch {
	case ctx.Err() != nil:
		return "it was not read: the audit ended first"
	case errors.As(err, &home) && errors.Is(home.Response.Err, fetch.ErrBudget):
		return "its homepage did not answer within its share of the scan's fetch budget"
	case errors.As(err, &home):
		return home.Message
	case errors.Is(err, ErrMemoryWait):
		return "it was read, but no memory was free to judge it within its share of the scan's fetch budget"
	}
	return "it could not be read: " + err.Error()
}

// rivals are the competitors whose brands are read for in the answers.
func (run *competitorRun) rivals() []mentions.Rival {
	var out []mentions.Rival
	for i, r := range run.results {
		if r.tracked {
			out = append(out, mentions.Rival{Brand: r.Brand, Aliases: run.aliases[i], Host: r.Host})
		}
	}
	return out
}

// stop ends the crawls still running and waits for them.
func (run *competitorRun) stop() {
	if run.cancel != nil {
		run.cancel()
	}
	run.crawls.Wait()
}

// finish waits for the crawls to end and returns the results; nil
// without competitors.
func (run *competitorRun) finish() []CompetitorResult {
	run.crawls.Wait()
	run.stop()
	return run.results
}

// competitorInputs are the competitors as the report records them.
func competitorInputs(list []CompetitorResult) []report.CompetitorInput {
	out := make([]report.CompetitorInput, 0, len(list))
	for _, c := range list {
		out = append(out, report.CompetitorInput{
			URL: c.URL, Host: c.Host, Brand: c.Brand, Status: c.Status, Reason: c.Reason, PagesAudited: c.PagesAudited, Scores: c.Scores,
		})
	}
	return out
}

// shareOfVoice is the measurement's share of voice, or why there is none.
func shareOfVoice(opts Options, m *mentions.Result) *mentions.ShareOfVoice {
	switch {
	case len(opts.Competitors) == 0:
		return mentions.ShareNotMeasuredFor(mentions.ShareNoCompetitors)
	case !opts.AI.Enabled():
		return mentions.ShareNotMeasuredFor(mentions.ShareNoEngine)
	case m == nil || m.ShareOfVoice == nil:
		return mentions.ShareNotMeasuredFor("every competitor named is on the scanned site's own domain or repeats another, so there is no other brand to compare with")
	}
	return m.ShareOfVoice
}

// maxNameRunes and maxNameWords bound a name a competitor's homepage
// declares: a longer one is a sentence or a title, not a name.
const (
	maxNameRunes = 60
	maxNameWords = 6
)

// boundedName is a declared name on one line, without control or format
// characters; "" when it is longer than a name.
func boundedName(s string) string {
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, s)), " ")
	if utf8.RuneCountInString(s) > maxNameRunes || len(strings.Fields(s)) > maxNameWords {
		return ""
	}
	return s
}

// readableName is a name for a site that declares none, from its
// registrable domain: the label before the public suffix, in Unicode,
// hyphens as spaces and each word capitalised ("crumb-and-kettle.co.uk"
// is "Crumb And Kettle"). An IP address is itself.
func readableName(host string) string {
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return host
	}
	domain := mentions.RegistrableDomain(host)
	suffix, _ := publicsuffix.PublicSuffix(domain)
	label := strings.TrimSuffix(domain, "."+suffix)
	if u, err := idna.ToUnicode(label); err == nil && u != "" {
		label = u
	}
	words := strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '.' })
	for i, w := range words {
		r, n := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[n:]
	}
	if len(words) == 0 {
		return host
	}
	return strings.Join(words, " ")
}

// sharedHold is an audit's memoryHold while its competitors are read and
// judged at once: it holds base (what the site itself needs) and, for
// each competitor being parsed and judged, that competitor's estimate.
// A competitor that needs more asks for the new whole the way memoryHold
// does, holding nothing while it waits; one that is done is counted out
// but not given back until trim, once all are done, so no competitor
// waits to give memory back.
type sharedHold struct {
	mu   sync.Mutex
	m    *memoryHold
	base int64
	need int64
}

func (s *sharedHold) grow(ctx context.Context, bytes int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.m.atLeast(ctx, s.need+bytes); err != nil {
		return err
	}
	s.need += bytes
	return nil
}

func (s *sharedHold) shrink(bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.need -= bytes
}

// trim gives back what is held beyond base, all of it: Run asks again
// for what the site needs.
func (s *sharedHold) trim() {
	if s.m.holding() > s.base {
		s.m.done()
	}
}

// partHold is one competitor's part of a sharedHold: its
// fetch.SiteOpts.BeforeParse reserves by the rule of the site's own
// (memoryHold.beforeParse), the first call counting the key pages'
// margin.
type partHold struct {
	s          *sharedHold
	html, held int64
}

func (p *partHold) beforeParse(ctx context.Context, htmlBytes int) error {
	margin := int64(0)
	if p.html == 0 {
		margin = MemoryKeyPagesMargin
	}
	p.html += int64(htmlBytes)
	want := estimateOf(p.html + margin)
	if want <= p.held {
		return nil
	}
	if err := p.s.grow(ctx, want-p.held); err != nil {
		return err
	}
	p.held = want
	return nil
}

func (p *partHold) done() {
	p.s.shrink(p.held)
	p.held = 0
}
