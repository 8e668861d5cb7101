package audit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/audit/agentready"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/fixes"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
)

// Target is the site to audit and the names it is audited under.
type Target struct {
	URL *url.URL
	// ScanID is the scan the report and dossier belong to; the zero UUID
	// outside a scan.
	ScanID uuid.UUID
	// BrandName is the brand the answer engines are asked about and the
	// report names; BrandAliases are its other names.
	BrandName    string
	BrandAliases []string
}

// Options say how to audit. The zero value of every field but Fetcher is
// usable.
type Options struct {
	// Fetcher reads the site. It is needed unless Site is given or Prior
	// brings a snapshot.
	Fetcher *fetch.Fetcher
	// Site is the site already read (a page built in a test, a site read
	// by another fetch); Run then reads nothing.
	Site *fetch.Site
	// FetchBudget bounds reading the site, with fetch.ErrBudget as the
	// cause when it runs out; zero leaves it to ctx.
	FetchBudget time.Duration
	// AI is the layer of answer engines. Nil, or one without engines,
	// leaves the four ai_mentions checks unmeasured (na) and the
	// summaries written from templates, and the report says so.
	AI *llm.Layer
	// AIReserve is the part of ctx's remaining time the answer engines
	// leave to the caller (to score and store): calls that would run into
	// it are cut short and their checks end as error, not the audit.
	AIReserve time.Duration
	// Now stamps the report and the day answers are cached for; nil is
	// time.Now.
	Now func() time.Time
	// Logger receives what the AI layer spent; nil discards it.
	Logger *slog.Logger
	// BuildTriage replaces triage.Build; nil is triage.Build. Tests use it
	// to make the dossier fail.
	BuildTriage func(triage.Input) (triage.Stored, error)
	// Prior makes Run recompute the dossier of an earlier audit from its
	// check outcomes instead of auditing afresh.
	Prior *Prior
	// Reserve, when set, bounds the memory of the audits a process runs at
	// once: Run asks it before parsing the homepage it read, by the
	// homepage's size, and again, for the whole, when the key pages or
	// the site given need more (MemoryEstimate); it waits for each grant,
	// holding nothing meanwhile, and calls release as it returns. A
	// whole-site audit gives that back before its crawl and asks again for
	// each page it parses, by the page's HTML, until the page is judged.
	// A reservation still waiting when ctx ends fails Run with
	// ErrOutOfTime and ErrMemoryWait (a crawled page's: the page is not
	// judged). Nil reserves nothing.
	Reserve func(ctx context.Context, bytes int64) (release func(), err error)
	// Renderer loads pages in a browser, to compare each with its HTML as
	// fetched (rendering.go): the homepage after it is read, and in a
	// whole-site audit a sample of the pages, the first of each template
	// first. Nil leaves rendering off: the checks about what JavaScript
	// adds judge from signs in the HTML, and say so.
	Renderer render.Renderer
	// RenderPages bounds the pages an audit renders, the homepage
	// included; 0 is DefaultRenderPages. RenderPerTemplate is how many
	// pages of one template a whole-site audit renders; 0 is 1.
	RenderPages       int
	RenderPerTemplate int

	// MaxPages above 1 makes the audit a whole-site audit: after the
	// homepage audit, the site is crawled with Fetcher (package crawl) up
	// to MaxPages pages, every page is judged by the page-level checks and
	// the pages are rolled up into Result.SiteView. At most 1 audits the
	// homepage and key pages only.
	MaxPages int
	// Pages receives each page of a whole-site audit as it is judged; nil
	// keeps only the roll-up.
	Pages PageSink
	// Progress is told of a whole-site audit's pages as they are judged.
	Progress Progress
	// Crawl shapes a whole-site audit's crawl (its MaxPages is MaxPages):
	// the job decides, e.g., Unthrottled against its own test sites.
	Crawl crawl.Options
	// PreviousSite is the previous whole-site audit of the same site; with
	// it, a whole-site audit's SiteView and report say how the site
	// changed since. Nil: no trend.
	PreviousSite *PreviousSite
	// Competitors are other sites to set beside the site (competitors.go):
	// each is audited at the same page budget (MaxPages, Crawl) with the
	// same Fetcher, but not asked about, rendered, triaged or kept, and
	// its brand (BrandName, or the name its homepage declares) is read for
	// in the answer engines' buyer answers (Result.ShareOfVoice). They
	// share FetchBudget with the site: each is read within an equal share
	// of it, FetchBudget/(1+N), after the site and before the engines are
	// asked. One that cannot be read fails alone (Result.Competitors).
	Competitors []Target
	// CrawlerLog is the latest analysed access log of the site: the report
	// shows it beside this audit (crawlers.go). Nil: none.
	CrawlerLog *CrawlerLog

	// Language is the language asked for the scan (an i18n tag, "" for
	// none). The audit's language is i18n.Resolve of it and the
	// homepage's declared language, as the scan job stores it: the
	// answer engines are asked the brand and buyer questions in it, and
	// the summaries, by an engine or from templates, are written in it.
	// Result.Language says which it was.
	Language string
}

// Prior is what an earlier audit of the target found. With it, Run asks
// no engine, runs no check and writes no report: it rebuilds the site from
// Snapshot (or fetches it again when there is none), recomputes the
// scores from Outcomes and builds the dossier, whose failure is then Run's.
type Prior struct {
	Outcomes []checks.Outcome
	// Snapshot is fetch.Snapshot of what the earlier audit fetched; nil
	// fetches the site again, and the dossier says it may have changed.
	Snapshot []byte
	// AgentReadiness is the agent-readiness lens the earlier audit judged:
	// its note goes into the dossier again, as it did the first time.
	AgentReadiness *agentready.Result
}

// Result is what an audit found, for its caller to keep.
type Result struct {
	Site     *fetch.Site
	Outcomes []checks.Outcome
	Scores   scoring.Result
	// Report is both audiences' report; nil when Prior was given.
	Report *report.Stored
	// Triage is the dossier, nil when building it failed (TriageErr): the
	// dossier is derived, so an audit completes without it.
	Triage    *triage.Stored
	TriageErr error
	// Snapshot is what was fetched, in fetch.SnapshotFormat, for
	// recomputing the dossier later; nil when it could not be made
	// (SnapshotErr) or when Prior was given.
	Snapshot    []byte
	SnapshotErr error
	// Refetched says the site was fetched again for a Prior without a
	// snapshot.
	Refetched bool
	// AIUsage is what the answer engines were asked and spent; zero
	// without them.
	AIUsage llm.Usage
	// Language is the audit's language (see Options.Language); empty
	// when Prior was given.
	Language string
	Timings  Timings
	// SiteView is the whole site as a whole-site audit saw it
	// (Options.MaxPages above 1); nil otherwise.
	SiteView *SiteView
	// Rendering says which pages a browser rendered (Options.Renderer),
	// and why the others were not; its Mode is off without a renderer.
	// Nil when Prior was given.
	Rendering *Rendering
	// AgentReadiness is the agent-readiness lens (agentready.go): shown
	// in the report, never scored. Nil when Prior was given.
	AgentReadiness *agentready.Result
	// Competitors are the audits of Options.Competitors, in their order;
	// nil without them.
	Competitors []CompetitorResult
	// ShareOfVoice is the brand's share of the buyer questions' answers
	// beside the competitors', and the sources cited; not measured, with
	// the reason, without competitors or an answer engine. Nil when Prior
	// was given.
	ShareOfVoice *mentions.ShareOfVoice
}

// Timings split an audit's wall time by stage.
type Timings struct {
	Fetch time.Duration // the network; parsing excluded
	Parse time.Duration
	// Memory is the time spent waiting for Options.Reserve.
	Memory time.Duration
	// AI is the time spent waiting for answer engines, the mention probes
	// and the summaries together.
	AI time.Duration
	// Render is the time spent rendering pages in a browser and comparing
	// them with their HTML, summed over pages rendered at once.
	Render   time.Duration
	Checks   time.Duration // the checks and scoring
	Report   time.Duration // the fixes included, AI summaries excluded
	Triage   time.Duration
	Snapshot time.Duration
	// AgentReadiness is the agent-readiness lens's fetches and judgement.
	AgentReadiness time.Duration
	// Competitors is reading and judging the competitors' homepages and
	// key pages; their crawls run alongside the rest.
	Competitors time.Duration
	Total       time.Duration
}

// ErrOutOfTime is Run's error when ctx ended just as the site had been
// read, leaving no time to judge it.
var ErrOutOfTime = errors.New("no time was left to judge the site after reading it")

// Run audits target: fetch → ask answer engines → checks → scores →
// dossier → report with its fixes → snapshot. It touches no database,
// queue or handler.
//
// An error means there is nothing to report: the site could not be read
// (a *fetch.HomeError says why, in words for the site's owner), ctx ended
// as it was read ([ErrOutOfTime]; the caller tells its own budget from an
// interruption by ctx's cause), or, with Prior, the snapshot could not be restored or
// the dossier not built. Everything else about the site ends in a Result.
func Run(ctx context.Context, target Target, opts Options) (res Result, err error) {
	start := time.Now()
	defer func() { res.Timings.Total = time.Since(start) }()
	if opts.Prior != nil {
		return res, recompute(ctx, target, opts, &res)
	}

	mem := newMemoryHold(opts)
	defer mem.done()
	rivals := &competitorRun{}
	site, err := read(ctx, target, opts, &res.Timings, mem)
	if err != nil {
		return res, err
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("audit %s: %w: %w", target.URL, ErrOutOfTime, context.Cause(ctx))
	}
	res.Site = site
	res.Language = opts.language(site.HomePage)
	err = mem.atLeast(ctx, MemoryEstimate(site))
	if err == nil && len(opts.Competitors) > 0 {
		// The competitors' brands are read for in the engines' answers,
		// so they are read first. Their pages are parsed inside the
		// audit's reservation, which then falls back to the site's.
		stage := time.Now()
		rivals = auditCompetitors(ctx, target, opts, mem, start)
		res.Timings.Competitors = time.Since(stage)
		err = mem.atLeast(ctx, MemoryEstimate(site))
	}
	defer rivals.stop()
	res.Timings.Memory = mem.wait()
	if err != nil {
		return res, fmt.Errorf("audit %s: %w", target.URL, err)
	}

	in := &checks.Input{Site: site, Home: site.HomePage, BrandName: target.BrandName, BrandAliases: target.BrandAliases, Now: opts.now()}
	renders := renderHome(ctx, opts, site, in, &res.Timings)
	res.AgentReadiness = agentReadiness(ctx, opts, site, &res.Timings)
	sess := askEngines(ctx, opts, in, rivals.rivals(), &res.Timings)

	stage := time.Now()
	res.Outcomes = checks.Run(in)
	notePartialHome(res.Outcomes, site.HomePage)
	res.Scores = Score(res.Outcomes)
	res.Timings.Checks = time.Since(stage)

	// The dossier comes before the report: the fixes the report carries
	// are written for the platform it detected.
	stage = time.Now()
	dossier, err := opts.buildTriage()(triage.Input{
		ScanID: target.ScanID, URL: target.URL.String(), BrandName: target.BrandName,
		Site: site, Outcomes: res.Outcomes, Scores: res.Scores, Caveats: agentReadinessNotes(res.AgentReadiness),
	})
	if err != nil {
		res.TriageErr = err
	} else {
		res.Triage = &dossier
	}
	res.Timings.Triage = time.Since(stage)

	stage = time.Now()
	doc := report.Build(report.Input{
		ScanID: target.ScanID, URL: target.URL.String(), BrandName: target.BrandName, GeneratedAt: opts.now(), Language: res.Language,
		Outcomes: res.Outcomes, Scores: res.Scores, Site: site, Caveats: slices.Concat(aiCaveats(opts.AI, res.Outcomes, in.Mentions), partialHomeCaveats(site.HomePage), renderingCaveats(renders.result())),
	})
	report.AttachAgentReadiness(&doc, res.AgentReadiness)
	report.AttachFixes(&doc, fixes.Generate(fixes.Input{
		Site: site, Outcomes: res.Outcomes, BrandName: target.BrandName, Platform: fixes.PlatformOf(res.Triage),
	}))
	res.Timings.Report = time.Since(stage)
	if sess != nil {
		writeSummaries(ctx, opts, sess, &doc, res.Language, &res.Timings)
		res.AIUsage = sess.Usage()
	}
	res.Report = &doc

	stage = time.Now()
	res.Snapshot, res.SnapshotErr = fetch.Snapshot(site)
	res.Timings.Snapshot = time.Since(stage)
	// The homepage is judged: a whole-site audit's pages reserve memory
	// one by one (reservePage), holding none of the homepage's.
	mem.done()
	var pages *pageURLs
	if opts.CrawlerLog != nil && opts.MaxPages > 1 {
		pages = &pageURLs{}
		opts.Pages = pages.wrap(opts.Pages)
	}
	res.SiteView, err = auditSite(ctx, target, opts, site, renders)
	res.Rendering = renders.result()
	res.Timings.Render += renders.sampleTime()
	report.AttachRendering(res.Report, renderingInput(res.Rendering))
	if res.SiteView != nil {
		res.SiteView.Trend = siteTrend(res.SiteView, opts.PreviousSite)
		report.AttachSite(res.Report, siteInput(res.SiteView))
	}
	if opts.CrawlerLog != nil {
		attachCrawlerActivity(res.Report, target, opts.CrawlerLog, site, pages)
	}
	res.ShareOfVoice = shareOfVoice(opts, in.Mentions)
	if len(opts.Competitors) > 0 {
		res.Competitors = rivals.finish()
		report.AttachBenchmark(res.Report, competitorInputs(res.Competitors), res.ShareOfVoice)
	}
	return res, err
}

// siteInput is what the report shows of a whole-site audit.
func siteInput(v *SiteView) report.SiteInput {
	in := report.SiteInput{
		PagesKnown: v.PagesKnown, PagesPlanned: v.PagesPlanned, PagesAudited: v.PagesAudited,
		Sample: v.Sample, Stop: v.Stop, Trend: v.Trend.reportTrend(),
	}
	for _, p := range v.WorstPages {
		if p.Score != nil {
			in.Worst = append(in.Worst, report.SitePage{URL: p.URL, Group: p.Group, Score: *p.Score})
		}
	}
	for _, c := range v.CrossCutting {
		in.Issues = append(in.Issues, report.SiteIssue{
			CheckID: c.CheckID, PagesAffected: c.PagesAffected, PagesAudited: c.PagesAudited,
			Groups: c.Groups, ExampleURLs: c.ExampleURLs, ExpectedGain: c.ExpectedGain,
		})
	}
	return in
}

// read fetches and parses the site within the fetch budget, asking mem
// (nil for none) before parsing.
func read(ctx context.Context, target Target, opts Options, t *Timings, mem *memoryHold) (*fetch.Site, error) {
	if opts.Site != nil {
		return opts.Site, nil
	}
	if opts.Fetcher == nil {
		return nil, errors.New("audit: no fetcher")
	}
	fctx, cancel := ctx, context.CancelFunc(func() {})
	if opts.FetchBudget > 0 {
		fctx, cancel = context.WithTimeoutCause(ctx, opts.FetchBudget, fetch.ErrBudget)
	}
	start := time.Now()
	site, err := opts.Fetcher.SiteWith(fctx, target.URL, mem.siteOpts())
	cancel()
	if site != nil {
		t.Parse = site.ParseTime
	}
	t.Fetch = time.Since(start) - t.Parse - mem.wait()
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", target.URL, err)
	}
	return site, nil
}

// recompute rebuilds the scores and dossier of an earlier audit.
func recompute(ctx context.Context, target Target, opts Options, res *Result) error {
	in := triage.Input{
		ScanID: target.ScanID, URL: target.URL.String(), BrandName: target.BrandName, Outcomes: opts.Prior.Outcomes,
		Caveats: agentReadinessNotes(opts.Prior.AgentReadiness),
	}
	if opts.Prior.Snapshot != nil {
		site, err := fetch.Restore(opts.Prior.Snapshot)
		if err != nil {
			return fmt.Errorf("restore snapshot: %w", err)
		}
		res.Site = site
	} else {
		site, err := read(ctx, target, opts, &res.Timings, nil)
		if err != nil {
			return err
		}
		res.Site, res.Refetched = site, true
		in.Caveats = append(in.Caveats, "This dossier was recomputed from a fresh fetch of the site made after the scan, on "+
			opts.now().UTC().Format("2 January 2006")+"; the site may have changed since the checks ran.")
	}
	in.Site = res.Site
	res.Outcomes = opts.Prior.Outcomes
	res.Scores = Score(res.Outcomes)
	in.Scores = res.Scores
	stage := time.Now()
	dossier, err := opts.buildTriage()(in)
	res.Timings.Triage = time.Since(stage)
	if err != nil {
		return err
	}
	res.Triage = &dossier
	return nil
}

// Score scores check outcomes by the rubric: the scores of an audit are
// this function of its outcomes' statuses, whenever they are recomputed.
func Score(outcomes []checks.Outcome) scoring.Result {
	scored := make([]scoring.CheckScore, 0, len(outcomes))
	for _, o := range outcomes {
		scored = append(scored, scoring.CheckScore{ID: o.Check.ID, Ring: o.Check.Ring, Pillar: o.Check.Pillar, Weight: o.Check.Weight, Status: string(o.Result.Status)})
	}
	return scoring.Score(scored)
}

// aiContext bounds the answer engines by ctx's deadline less the reserve.
func aiContext(ctx context.Context, reserve time.Duration) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok {
		return context.WithDeadline(ctx, d.Add(-reserve))
	}
	return context.WithCancel(ctx)
}

// askEngines measures what the answer engines say about the brand into
// in.Mentions and returns the session the summaries use; nil without an
// engine.
func askEngines(ctx context.Context, opts Options, in *checks.Input, rivals []mentions.Rival, t *Timings) *llm.Session {
	if !opts.AI.Enabled() {
		return nil
	}
	start := time.Now()
	sess := opts.AI.Session(opts.now())
	actx, cancel := aiContext(ctx, opts.AIReserve)
	defer cancel()
	subj := checks.AISubject(in)
	subj.Language = opts.language(in.Home)
	subj.Competitors = rivals
	in.Mentions = mentions.Measure(actx, sess, subj)
	t.AI += time.Since(start)
	return sess
}

// writeSummaries lets the default engine write the summaries in lang and
// logs what the AI layer spent on the audit.
func writeSummaries(ctx context.Context, opts Options, sess *llm.Session, doc *report.Stored, lang string, t *Timings) {
	start := time.Now()
	actx, cancel := aiContext(ctx, opts.AIReserve)
	report.WriteSummaries(actx, sess, doc, lang)
	cancel()
	t.AI += time.Since(start)
	u := sess.Usage()
	attrs := []any{slog.Int("calls", u.Calls), slog.Int("cache_hits", u.CacheHits), slog.Int("tokens", u.Tokens)}
	for purpose, p := range u.ByPurpose {
		attrs = append(attrs, slog.Group(purpose, slog.Int("calls", p.Calls), slog.Int("cache_hits", p.CacheHits),
			slog.Int("errors", p.Errors), slog.Int("input_tokens", p.InputTokens), slog.Int("output_tokens", p.OutputTokens)))
	}
	opts.logger().InfoContext(ctx, "answer engines used", attrs...)
}

// aiCaveats are the report's sentences about the AI layer: not configured,
// the scripted demo engine, a measurement cut to fit the call budget, or
// checks an engine failure left unmeasured.
func aiCaveats(ai *llm.Layer, outcomes []checks.Outcome, m *mentions.Result) []string {
	if !ai.Enabled() {
		return []string{"No answer engine is configured (GEOSCAN_LLM_BASE_URL), so the four AI mention checks were not measured and the trust ring is scored without them; the summaries are written from templates."}
	}
	var out []string
	for _, e := range ai.Engines {
		if e.Info().Scripted {
			out = append(out, "The answer engine is GeoScan's scripted demo engine: its answers are canned and say nothing about any real AI assistant.")
			break
		}
	}
	if m != nil && len(m.Plan.Dropped) > 0 {
		out = append(out, fmt.Sprintf("The scan's budget of answer-engine calls could not cover the whole AI measurement (%d calls needed, %d planned): %s.",
			m.Plan.Needed, m.Plan.Planned, strings.Join(m.Plan.Dropped, "; ")))
	}
	errored := 0
	for _, o := range outcomes {
		if o.Check.Pillar == "ai_mentions" && o.Result.Status == checks.Error {
			errored++
		}
	}
	if errored > 0 {
		out = append(out, fmt.Sprintf("%d of the 4 AI mention checks could not be measured (an answer engine failed, timed out or the scan's call budget ran out); they are left out of the scores.", errored))
	}
	return out
}

// pagePillars are the pillars whose checks read the homepage's content.
var pagePillars = map[string]bool{
	"answer_structure": true, "authorship_freshness": true, "content_integrity": true,
	"entity_identity": true, "extractability": true, "structured_data": true,
}

// notePartialHome words the findings of the page's checks that did not
// pass when the homepage was parsed only in part (page.MaxElements): what
// they missed may lie in the part not read, so they say what they judged.
// A check's status is the check's own; the sentence makes its scope true.
func notePartialHome(outcomes []checks.Outcome, p *page.Page) {
	if p == nil || !p.Truncated {
		return
	}
	note := fmt.Sprintf(" Judged on the first %d KiB of the homepage's %d KiB of HTML: it has more than %d elements, and the rest was not read.",
		p.ReadBytes>>10, p.HTMLBytes>>10, page.MaxElements)
	for i := range outcomes {
		o := &outcomes[i]
		if !pagePillars[o.Check.Pillar] || (o.Result.Status != checks.Fail && o.Result.Status != checks.Warn) {
			continue
		}
		o.Result.Summary += note
		if o.Result.Evidence == nil {
			o.Result.Evidence = map[string]any{}
		}
		o.Result.Evidence["homepage_read_bytes"] = p.ReadBytes
		o.Result.Evidence["homepage_bytes"] = p.HTMLBytes
	}
}

// partialHomeCaveats is the report's sentence about a homepage parsed in
// part.
func partialHomeCaveats(p *page.Page) []string {
	if p == nil || !p.Truncated {
		return nil
	}
	return []string{fmt.Sprintf("The homepage has more than %d HTML elements; GeoScan read its first %d KiB of %d KiB, and the findings about its content are about that part.",
		page.MaxElements, p.ReadBytes>>10, p.HTMLBytes>>10)}
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (o Options) buildTriage() func(triage.Input) (triage.Stored, error) {
	if o.BuildTriage != nil {
		return o.BuildTriage
	}
	return triage.Build
}
