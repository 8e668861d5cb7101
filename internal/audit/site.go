package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The bounds of what a whole-site audit keeps for its roll-up.
const (
	maxWorstPages  = 10
	maxExampleURLs = 5
	// crossCuttingShare and crossCuttingPages are the rule for a
	// cross-cutting issue: a page-level check that fails or warns on at
	// least this share of the audited pages, and on at least this many.
	crossCuttingShare = 0.10
	crossCuttingPages = 2
	// A page-level check's status on the site is pass when at least
	// sitePassShare of the pages it judged pass it, warn from
	// siteWarnShare, else fail.
	sitePassShare = 0.9
	siteWarnShare = 0.5
)

// auditSite is the whole-site audit: nil when opts.MaxPages is at most 1.
// It crawls the site with the homepage audit's fetcher, judges every HTML
// page with the page-level checks as it arrives, on as many goroutines as
// there are processors, hands each page to opts.Pages in the order it is
// judged and rolls the pages up. A sink's error, or ctx cancelled, ends
// it with an error and the view of the pages judged so far.
func auditSite(ctx context.Context, target Target, opts Options, home *fetch.Site, renders *renderSampler) (*SiteView, error) {
	if opts.MaxPages <= 1 {
		return nil, nil
	}
	if opts.Fetcher == nil {
		return nil, errors.New("audit: a whole-site audit needs a fetcher")
	}
	co := opts.Crawl
	co.MaxPages = opts.MaxPages
	inv, err := crawl.Discover(ctx, opts.Fetcher, target.URL, co)
	if err != nil {
		return nil, fmt.Errorf("audit %s: site crawl: %w", target.URL, err)
	}
	j := &siteJudge{
		target: target, opts: opts, auditedAs: home.AuditedAs, renders: renders,
		planned: min(opts.MaxPages, max(inv.Known(), 1)),
		checks:  map[string]*checkTally{}, groups: map[string]*groupTally{},
	}
	pages := make(chan *crawl.Page, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range pages {
				j.judge(ctx, p)
			}
		})
	}
	first := true
	res, err := crawl.Run(ctx, inv, func(p *crawl.Page) error {
		if err := j.failed(); err != nil {
			return err
		}
		if first {
			// The homepage comes first and is judged before the workers
			// start on the others: it is position 0.
			first = false
			j.judge(ctx, p)
			return j.failed()
		}
		pages <- p
		return nil
	})
	close(pages)
	wg.Wait()
	view := j.view(res)
	if err == nil {
		err = j.failed()
	}
	if err != nil {
		return view, fmt.Errorf("audit %s: site crawl: %w", target.URL, err)
	}
	if opts.Progress != nil {
		opts.Progress(j.done, j.done)
	}
	return view, nil
}

// siteJudge judges a crawl's pages and keeps what the roll-up needs: a
// tally per page-level check and per template, and the worst pages.
type siteJudge struct {
	target    Target
	opts      Options
	auditedAs string
	// renders renders the sample of pages a browser loads; nil when
	// rendering is off.
	renders *renderSampler

	mu      sync.Mutex // guards what follows and orders the sink's calls
	err     error      // the sink's
	done    int        // pages handed to the sink
	planned int
	audited int
	sum     float64 // of the audited pages' scores
	checks  map[string]*checkTally
	order   []string // check ids in catalog order
	groups  map[string]*groupTally
	worst   []PageResult // worst first, at most maxWorstPages
}

// checkTally is one page-level check over the audited pages.
type checkTally struct {
	pass, warn, fail int
	// gain sums, over the pages, what passing the check would add to each
	// page's score.
	gain     float64
	groups   map[string]bool
	examples []string
}

type groupTally struct {
	pages, scored int
	sum           float64
}

func (j *siteJudge) failed() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// judge judges one page and hands it to the sink.
func (j *siteJudge) judge(ctx context.Context, p *crawl.Page) {
	// Pages still queued when the crawl is cancelled are dropped, not
	// handed to a sink that would only fail on them.
	if j.failed() != nil || ctx.Err() != nil {
		return
	}
	release, err := j.reservePage(ctx, p)
	if err != nil {
		return // ctx ended while the page waited for memory
	}
	pr, sc := j.pageResult(ctx, p)
	release()

	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil || ctx.Err() != nil {
		return
	}
	pr.Position = j.done
	if j.opts.Pages != nil {
		if err := j.opts.Pages(ctx, pr); err != nil {
			j.err = fmt.Errorf("page sink: %w", err)
			return
		}
	}
	j.done++
	j.planned = max(j.planned, j.done)
	j.add(pr, sc)
	if j.opts.Progress != nil {
		j.opts.Progress(j.done, j.planned)
	}
}

// pageResult runs the page-level checks on one page and scores it; the
// scores are nil for a page not judged.
func (j *siteJudge) pageResult(ctx context.Context, p *crawl.Page) (PageResult, *scoring.Result) {
	pr := PageResult{URL: p.URL, Group: p.Template, Type: "other"}
	r := p.Response
	if r != nil {
		pr.HTTPStatus = r.Status
	}
	doc := p.HTML()
	switch {
	case r == nil:
		pr.Error = "the page was not fetched"
	case r.Err != nil:
		pr.Error = "the request failed: " + r.ErrorText()
	case p.RedirectTo != "":
		pr.Error = "the page redirects to " + p.RedirectTo
	case r.Status >= 300 && r.Status < 400:
		pr.Error = fmt.Sprintf("the page answered HTTP %d, a redirect", r.Status)
	case !r.OK():
		pr.Error = fmt.Sprintf("the page answered HTTP %d", r.Status)
	case !r.IsHTML():
		pr.Error = "the page is not HTML (" + r.ContentType() + ")"
	case doc == nil:
		pr.Error = "the page's HTML could not be parsed"
	}
	if pr.Error != "" {
		return pr, nil
	}
	pr.Type = pageType(doc, p.URL)
	site := &fetch.Site{Target: j.target.URL, Home: r, HomePage: doc, AuditedAs: j.auditedAs}
	in := &checks.Input{Site: site, Home: doc, BrandName: j.target.BrandName, BrandAliases: j.target.BrandAliases, Now: j.opts.now()}
	in.Rendered, in.RenderErr = j.renders.page(ctx, p.URL, p.Template, pr.Type == "home", doc)
	outcomes := checks.RunPage(in, pageKinds[pr.Type])
	pr.Checks = make([]PageCheck, len(outcomes))
	scored := false
	for i, o := range outcomes {
		pr.Checks[i] = PageCheck{ID: o.Check.ID, Status: string(o.Result.Status), Summary: o.Result.Summary}
		if _, ok := o.Result.Status.Score(); ok && o.Check.Weight > 0 {
			scored = true
		}
	}
	if !scored {
		return pr, nil
	}
	sc := Score(outcomes)
	pr.Score = &sc.Overall
	return pr, &sc
}

// add counts a page handed to the sink into the roll-up.
func (j *siteJudge) add(pr PageResult, sc *scoring.Result) {
	if pr.Error != "" {
		return
	}
	g := j.groups[pr.Group]
	if g == nil {
		g = &groupTally{}
		j.groups[pr.Group] = g
	}
	g.pages++
	j.audited++
	for _, c := range pr.Checks {
		t := j.checks[c.ID]
		if t == nil {
			t = &checkTally{groups: map[string]bool{}}
			j.checks[c.ID] = t
			j.order = append(j.order, c.ID)
		}
		switch checks.Status(c.Status) {
		case checks.Pass:
			t.pass++
		case checks.Warn, checks.Fail:
			if c.Status == string(checks.Warn) {
				t.warn++
			} else {
				t.fail++
			}
			t.groups[pr.Group] = true
			if len(t.examples) < maxExampleURLs {
				t.examples = append(t.examples, pr.URL)
			}
			if sc != nil {
				t.gain += sc.Gains[c.ID].Overall
			}
		}
	}
	if pr.Score == nil {
		return
	}
	g.scored++
	g.sum += *pr.Score
	j.sum += *pr.Score
	// The worst pages: a sorted slice of at most maxWorstPages, worst
	// first (ties: the page judged first).
	at, _ := slices.BinarySearchFunc(j.worst, *pr.Score, func(w PageResult, s float64) int {
		if *w.Score <= s {
			return -1
		}
		return 1
	})
	if at < maxWorstPages {
		j.worst = slices.Insert(j.worst, at, pr)
		j.worst = j.worst[:min(len(j.worst), maxWorstPages)]
	}
}

// view rolls the judged pages up; res may be nil when the crawl could not
// start.
func (j *siteJudge) view(res *crawl.Result) *SiteView {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := &SiteView{PagesAudited: j.audited, WorstPages: j.worst}
	if res != nil {
		v.PagesKnown = res.Sample.Known
		v.PagesPlanned = min(j.opts.MaxPages, max(res.Sample.Known, j.done))
		v.Sample = res.Sample.String()
		v.Stop = string(res.Stop)
	}
	scoredPages := 0
	for name, g := range j.groups {
		gs := GroupSummary{Group: name, Pages: g.pages}
		if g.scored > 0 {
			gs.MeanScore = ptr(round1(g.sum / float64(g.scored)))
			scoredPages += g.scored
		}
		v.Groups = append(v.Groups, gs)
	}
	slices.SortFunc(v.Groups, func(a, b GroupSummary) int {
		return cmp.Or(cmp.Compare(b.Pages, a.Pages), strings.Compare(a.Group, b.Group))
	})
	if scoredPages > 0 {
		v.Score = ptr(round1(j.sum / float64(scoredPages)))
	}

	var statuses []checks.Outcome
	for _, id := range j.order {
		t := j.checks[id]
		c := checks.Lookup(id)
		sc := SiteCheck{ID: id, Passing: t.pass, Warning: t.warn, Failing: t.fail, Status: string(siteStatus(t))}
		v.Checks = append(v.Checks, sc)
		if c != nil {
			statuses = append(statuses, checks.Outcome{Check: c, Result: checks.Result{Status: checks.Status(sc.Status)}})
		}
		bad := t.warn + t.fail
		if !isCrossCutting(bad, j.audited) {
			continue
		}
		groups := make([]string, 0, len(t.groups))
		for g := range t.groups {
			groups = append(groups, g)
		}
		slices.Sort(groups)
		v.CrossCutting = append(v.CrossCutting, CrossCuttingIssue{
			CheckID: id, PagesAffected: bad, PagesAudited: j.audited, Groups: groups,
			ExampleURLs: slices.Clone(t.examples), ExpectedGain: round1(t.gain / float64(max(scoredPages, 1))),
		})
	}
	slices.SortStableFunc(v.CrossCutting, func(a, b CrossCuttingIssue) int {
		return cmp.Or(cmp.Compare(b.PagesAffected, a.PagesAffected), cmp.Compare(b.ExpectedGain, a.ExpectedGain))
	})
	if len(statuses) > 0 {
		s := Score(statuses)
		v.Scores = &s
	}
	return v
}

// siteStatus is a page-level check's status on the site: its share of
// passing pages among those it judged, mapped onto pass/warn/fail; na
// when it judged none.
func siteStatus(t *checkTally) checks.Status {
	judged := t.pass + t.warn + t.fail
	if judged == 0 {
		return checks.NA
	}
	share := float64(t.pass) / float64(judged)
	switch {
	case share >= sitePassShare:
		return checks.Pass
	case share >= siteWarnShare:
		return checks.Warn
	}
	return checks.Fail
}

// pageKinds are the page types the checks judge against their kind.
var pageKinds = map[string]fetch.Purpose{"article": fetch.Article, "product": fetch.Product}

// pageType is the kind of page, read from its structured data and Open
// Graph type, then from its path: home, article, product, category, docs
// or other.
func pageType(p *page.Page, raw string) string {
	// The crawl stays on the site (its www or apex twin included), so
	// the root is the homepage whichever name it is on.
	if u, err := url.Parse(raw); err == nil && (u.Path == "" || u.Path == "/") && u.RawQuery == "" {
		return "home"
	}
	// The first top-level entity of a known kind says what the page is:
	// a listing's nested posts or products do not make it one.
	for _, e := range p.Graph.TopLevel() {
		switch {
		case e.Is("Product", "ProductGroup"):
			return "product"
		case e.Is("TechArticle", "APIReference", "HowTo"):
			return "docs"
		case e.Is("Article", "BlogPosting", "NewsArticle"):
			return "article"
		case e.Is("CollectionPage", "ItemList", "OfferCatalog", "Blog", "SearchResultsPage"):
			return "category"
		}
	}
	if og := p.Properties["og:type"]; len(og) > 0 {
		switch strings.ToLower(og[0]) {
		case "product", "og:product":
			return "product"
		case "article":
			return "article"
		}
	}
	path := strings.ToLower(raw)
	switch {
	case strings.Contains(path, "/docs/"), strings.Contains(path, "/guides/"), strings.Contains(path, "/help/"):
		return "docs"
	case strings.Contains(path, "/blog/"), strings.Contains(path, "/journal/"), strings.Contains(path, "/news/"):
		return "article"
	case strings.Contains(path, "/product"), strings.Contains(path, "/p/"):
		return "product"
	case strings.Contains(path, "/category/"), strings.Contains(path, "/c/"), strings.Contains(path, "/collections/"):
		return "category"
	}
	return "other"
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func ptr[T any](v T) *T { return &v }
