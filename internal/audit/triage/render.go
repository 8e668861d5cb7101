package triage

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// text is one wording per audience.
type text struct{ marketing, engineering string }

func (t text) For(audience scoring.Audience) string {
	if audience == scoring.Engineering {
		return t.engineering
	}
	return t.marketing
}

// platformFinding is a ledger row about what the site is built with.
type platformFinding struct {
	label, why text
}

func platformFindings(det Detection, complexity complexityResult, byID map[string]checks.Outcome, ls []lensResult) []finding {
	var out []finding
	add := func(id string, st api.TriageFindingStatus, label, why text) *finding {
		out = append(out, finding{id: id, category: "platform", status: st, platform: &platformFinding{label: label, why: why}})
		return &out[len(out)-1]
	}

	if c := det.CMS; c != nil {
		n := c.Name
		label := text{"Built on " + n, fmt.Sprintf("CMS: %s%s (%s confidence: %s)", n, versionSuffix(c.Version), c.Confidence(), strings.Join(c.Evidence, ", "))}
		why := map[Class]text{
			ClassOpen: {
				"A self-hosted platform: most fixes are a plugin setting or a theme edit made by your own team.",
				"Self-hosted: robots.txt, response headers and templates are under the owner's control; fixes are plugin settings or theme edits.",
			},
			ClassStatic: {
				"Every page is a file your team builds and publishes, so fixes ship with the next update of the site.",
				"Static output: robots.txt, llms.txt and headers are files or host configuration in the repository; fixes ship with the next build.",
			},
			ClassHosted: {
				n + " hosts the site, so some files and settings can only be changed the way " + n + " allows, which makes a few fixes slower.",
				n + " is hosted: root files such as robots.txt and llms.txt go through theme templates or apps, response headers cannot be set, template markup is editable.",
			},
			ClassLocked: {
				n + " controls most of the technical setup; some fixes need workarounds or are not possible.",
				n + " exposes no server: root files and headers are fixed by the platform and head markup is limited to code injection.",
			},
			"": {
				"GeoScan recognised " + n + " but has no profile of what it lets you change, so effort estimates are generic.",
				n + " was recognised from the fingerprint database; there is no platform profile for it, so effort estimates use the catalog defaults.",
			},
		}[c.Class]
		add("platform_cms", api.Neutral, label, why)
	} else {
		add("platform_cms", api.Neutral, text{"Platform not recognised", "CMS: not recognised"},
			text{
				"We could not tell what the site is built with, so effort estimates are generic.",
				"No CMS or generator signal matched in headers, cookies, meta generator, asset paths or markup; effort estimates use the catalog defaults.",
			})
	}

	if b := det.Builder; b != nil {
		add("platform_page_builder", api.Neutral,
			text{"Pages built with " + b.Name, fmt.Sprintf("Page builder: %s (%s)", b.Name, strings.Join(b.Evidence, ", "))},
			text{
				"Page builders wrap text in layout code; headings and page structure are set page by page in the builder.",
				"Builder markup (nested wrappers, inline styles) inflates HTML and can bury headings; structure fixes are made per template in the builder.",
			})
	}

	if fw := det.Framework; fw != nil {
		label := text{"Runs on " + fw.Name, fmt.Sprintf("JavaScript framework: %s (%s)", fw.Name, strings.Join(fw.Evidence, ", "))}
		switch {
		case clientRendered(det):
			st := api.Neutral
			rendering := ls[slices.IndexFunc(ls, func(l lensResult) bool { return l.def.id == "rendering" })]
			if rendering.bucket >= 2 {
				st = api.Weakness
			}
			f := add("platform_js_framework", st, label,
				text{
					"The site is drawn in the visitor's browser; AI crawlers that do not run JavaScript see little of its text.",
					fw.Name + " renders in the browser; crawlers without JavaScript get the shell, and server rendering means a framework change (a server-rendering framework or prerendering).",
				})
			if st == api.Weakness {
				f.impact, f.effort = checks.High, checks.High
			}
		case fw.Class == ClassSPA: // a library inside a recognised CMS
			add("platform_js_framework", api.Neutral, label,
				text{
					fw.Name + " runs inside pages that " + det.CMS.Name + " builds; crawlers get the text " + det.CMS.Name + " renders.",
					fw.Name + " runs on top of " + det.CMS.Name + "'s server-rendered pages; rendering is the platform's, not an application's.",
				})
		default:
			add("platform_js_framework", api.Neutral, label,
				text{
					fw.Name + " can send finished pages to crawlers; the rendering checks show whether this site does.",
					fw.Name + " supports server rendering and static generation; rendering fixes are per route (static or server rendering instead of client-only).",
				})
		}
	}

	for _, t := range det.Technologies {
		if slices.Contains(t.Categories, "SEO") {
			add("platform_seo_plugin", api.Neutral, text{"SEO plugin: " + t.Name, "SEO plugin: " + t.Name},
				text{
					"Your SEO plugin writes the site's structured data and meta tags, so most of those fixes are settings in the plugin.",
					t.Name + " emits the JSON-LD graph and meta tags; fix structured data in its settings rather than in templates, or the two will conflict.",
				})
			break
		}
	}

	if bm := firstTech(det, func(t Tech) bool { return t.BotManagement }); bm != nil {
		edge, ok := byID["edge_bot_reachability"]
		switch {
		case ok && edge.Result.Status == checks.Fail:
			f := add("platform_bot_management", api.Weakness,
				text{bm.Name + " screens bots in front of the site", "Bot management: " + bm.Name + " (" + strings.Join(bm.Evidence, ", ") + ")"},
				text{
					"It turns away AI crawlers that robots.txt invites, so answer engines cannot read the site.",
					"The edge challenges AI user agents even though robots.txt allows them; add a verified-bot or user-agent skip rule for AI search crawlers and user fetchers.",
				})
			f.impact, f.effort = checks.High, effortFor(edge.Check, det)
		case ok && edge.Result.Status == checks.Warn:
			f := add("platform_bot_management", api.Weakness,
				text{bm.Name + " screens bots in front of the site", "Bot management: " + bm.Name + " (" + strings.Join(bm.Evidence, ", ") + ")"},
				text{
					"AI crawlers got through, but the site answered them differently from a browser; the crawler access finding says how.",
					"AI crawler probes were served but not like a browser (see edge_bot_reachability); check the edge rules that vary the answer by user agent.",
				})
			f.impact, f.effort = checks.Medium, effortFor(edge.Check, det)
		default:
			add("platform_bot_management", api.Neutral,
				text{bm.Name + " screens bots in front of the site", "Bot management: " + bm.Name},
				text{
					"It protects the site from abusive bots; the AI crawlers GeoScan imitated got through.",
					"Edge bot management is present and the AI crawler probes got through; keep verified AI crawlers on its allow list.",
				})
		}
	} else if cdn := firstTech(det, func(t Tech) bool { return slices.Contains(t.Categories, "CDN") }); cdn != nil {
		add("platform_cdn", api.Neutral, text{"Served through " + cdn.Name, "CDN: " + cdn.Name},
			text{
				"A content delivery network speeds pages up for crawlers; its rules also decide which bots get through.",
				"A CDN fronts the origin: its cache and firewall rules decide what crawlers receive; check them when bots see different answers.",
			})
	}

	if cm := firstTech(det, func(t Tech) bool { return slices.Contains(t.Categories, "Cookie compliance") }); cm != nil {
		add("platform_consent", api.Neutral, text{"Cookie consent: " + cm.Name, "Consent manager: " + cm.Name},
			text{
				"Consent banners load before the content; when they cover the page in the HTML crawlers read, text can be missed.",
				"Consent managers inject overlays and can gate scripts; make sure the server-rendered text does not depend on consent.",
			})
	}

	add("complexity", api.Neutral,
		text{"Complexity: " + complexity.bucket, "Complexity: " + complexity.bucket + signalsSuffix(complexity.signals)},
		complexityWhy[complexity.bucket])
	return out
}

var complexityWhy = map[string]text{
	"simple": {
		"A small, conventional site: fixes are quick to make and to check.",
		"Few technologies and third parties: changes are local and easy to verify.",
	},
	"moderate": {
		"Several moving parts: plan fixes with whoever maintains the site.",
		"Several technologies or integrations: expect some coordination and regression checks.",
	},
	"complex": {
		"Many technologies and third parties: fixes need coordination and testing.",
		"Many technologies, third-party scripts or client rendering: fixes need staging and regression testing.",
	},
	"enterprise": {
		"A large, many-part estate: fixes go through release processes, so expect longer timelines.",
		"Large estate (languages, big sitemaps, edge bot management, headless stack): fixes go through release trains and several owners.",
	},
}

func signalsSuffix(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return " (" + strings.Join(s, ", ") + ")"
}

func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " " + v
}

func firstTech(det Detection, match func(Tech) bool) *Tech {
	for i := range det.Technologies {
		if match(det.Technologies[i]) {
			return &det.Technologies[i]
		}
	}
	return nil
}

type caveat = string

func caveats(in Input, f facts) []caveat {
	out := []caveat{}
	if f.det.FingerprintError != nil {
		out = append(out, "The fingerprint database could not be loaded; platform detection used the in-house table only.")
	}
	var failed []string
	for _, r := range in.Site.Pages {
		if !r.OK() {
			failed = append(failed, string(r.Purpose))
		}
	}
	if len(failed) > 0 {
		slices.Sort(failed)
		failed = slices.Compact(failed)
		out = append(out, "Some sampled pages could not be fetched ("+strings.Join(failed, ", ")+"); findings about them rest on the homepage.")
	}
	for _, ring := range in.Scores.Rings {
		if ring.Coverage < 0.6 {
			out = append(out, "Many checks could not be evaluated on this site, so the buckets rest on partial evidence.")
			break
		}
	}
	if in.Site.AuditedAs != "" {
		out = append(out, "The site refused GeoScan's own user agent ("+fetch.Refusal(in.Site.AuditorHome)+") but served a browser, so the audit read what a browser receives.")
	} else if in.Site.AuditorRefused() {
		out = append(out, "The site refused GeoScan's own user agent and a browser alike ("+fetch.Refusal(in.Site.Home)+"), so the findings describe the refusal page, not the site.")
	}
	if len(f.det.Notes) > 0 {
		out = append(out, "Platform evidence not counted: "+strings.Join(f.det.Notes, "; ")+".")
	}
	if edgeChallenged(in.Site) {
		out = append(out, "An edge challenge answered some AI crawler probes: what those crawlers receive differs from what GeoScan saw.")
	}
	llmSkipped, noEngine, llmErrors := true, false, 0
	for _, o := range in.Outcomes {
		if o.Check.Pillar != "ai_mentions" {
			continue
		}
		if o.Result.Status != checks.NA {
			llmSkipped = false
		}
		if o.Result.Evidence["reason"] == checks.NoAnswerEngine {
			noEngine = true
		}
		if o.Result.Status == checks.Error {
			llmErrors++
		}
	}
	switch {
	case noEngine:
		out = append(out, "No answer engine is configured, so the AI mention checks were not measured and what AI assistants say about the brand is unknown.")
	case llmSkipped:
		out = append(out, "The language-model mention checks were skipped, so what AI assistants say about the brand is unknown.")
	case llmErrors > 0:
		out = append(out, "Some AI mention checks could not be measured because an answer engine failed; they are left out of the scores.")
	}
	if in.Site.Home != nil && in.Site.Home.Truncated {
		out = append(out, "The homepage was larger than the fetch limit and was read in part.")
	}
	if clientRendered(f.det) || status(f.byID, "ssr_text_content") == checks.Fail {
		out = append(out, "Platform detection reads the HTML and headers the server sends; technologies loaded only by JavaScript are not seen.")
	}
	return append(out, in.Caveats...)
}

// edgeChallenged reports an AI crawler probe refused (a challenge, 401,
// 403 or 429) while the browser probe was served: only then does the edge
// treat AI crawlers differently. A 503 or an outage that every requester
// saw says nothing about AI crawlers.
func edgeChallenged(site *fetch.Site) bool {
	browserServed := false
	for _, b := range site.Bots {
		if b.Bot.Role == "browser" {
			browserServed = b.Response.OK() && fetch.Refusal(b.Response) == ""
		}
	}
	if !browserServed {
		return false
	}
	for _, b := range site.Bots {
		if b.Bot.Role != "browser" && fetch.Refusal(b.Response) != "" {
			return true
		}
	}
	return false
}

// render writes the dossier for one audience from the facts.
func (f facts) render(in Input, audience scoring.Audience) api.TriageDossier {
	d := api.TriageDossier{
		ScanID: in.ScanID, SchemaVersion: SchemaVersion, Audience: api.TriageDossierAudience(audience),
		Platform: api.TriagePlatform{
			ComplexityBucket: api.TriagePlatformComplexityBucket(f.complexity.bucket),
			Confidence:       api.TriagePlatformConfidenceLow,
			Technologies:     []api.TriageTechnology{},
		},
		PriorityActions: []api.TriageAction{},
		Strengths:       []api.TriageFinding{},
		RiskLenses:      []api.TriageRiskLens{},
		EvidenceLedger:  []api.TriageFinding{},
		Caveats:         f.caveats,
	}
	name := func(t *Tech) *string {
		if t == nil {
			return nil
		}
		s := t.Name
		return &s
	}
	d.Platform.Cms, d.Platform.PageBuilder, d.Platform.JsFramework = name(f.det.CMS), name(f.det.Builder), name(f.det.Framework)
	if f.det.CMS != nil {
		d.Platform.Confidence = api.TriagePlatformConfidence(f.det.CMS.Confidence())
	}
	for _, t := range f.det.Technologies {
		tt := api.TriageTechnology{Name: t.Name, Categories: t.Categories, Confidence: api.TriageTechnologyConfidence(t.Confidence())}
		if tt.Categories == nil {
			tt.Categories = []string{}
		}
		if t.Version != "" {
			v := t.Version
			tt.Version = &v
		}
		d.Platform.Technologies = append(d.Platform.Technologies, tt)
	}
	for _, l := range f.lenses {
		d.RiskLenses = append(d.RiskLenses, api.TriageRiskLens{
			LensID: api.TriageRiskLensLensID(l.def.id), Label: l.def.label, Bucket: api.TriageRiskLensBucket(l.Bucket()), Basis: l.basis,
		})
	}
	for _, fd := range f.findings {
		row := api.TriageFinding{ID: fd.id, Category: fd.category, Status: fd.status}
		if fd.platform != nil {
			row.Label, row.WhyItMatters = fd.platform.label.For(audience), fd.platform.why.For(audience)
		} else {
			t := fd.outcome.Check.TextFor(audience)
			row.Label, row.WhyItMatters = t.Title, t.Why
		}
		if fd.impact != "" {
			v := api.TriageFindingImpact(fd.impact)
			row.Impact = &v
		}
		if fd.effort != "" {
			v := api.TriageFindingEffort(fd.effort)
			row.Effort = &v
		}
		d.EvidenceLedger = append(d.EvidenceLedger, row)
		if row.Status == api.Strength {
			d.Strengths = append(d.Strengths, row)
		}
	}
	for _, a := range f.actions {
		t := a.outcome.Check.TextFor(audience)
		act := api.TriageAction{
			ID: a.outcome.Check.ID, CheckID: a.outcome.Check.ID, Label: t.Title, Recommendation: t.Fix,
			Impact: api.Level(a.impact), Effort: api.Level(a.effort), QuickWin: a.quickWin,
			ExpectedGain: &a.gain, GainInOrder: &a.inOrder, FixedWith: &[]string{},
		}
		*act.FixedWith = append(*act.FixedWith, a.with...)
		if a.lens != "" {
			l := a.lens
			act.LensID = &l
		}
		d.PriorityActions = append(d.PriorityActions, act)
		if a.quickWin {
			d.QuickWinCount++
		}
	}
	d.ActionCount = len(d.PriorityActions)
	d.SummaryParagraph = f.summary(in, audience)
	return d
}

// summary names the platform, the biggest risk and the first quick win.
func (f facts) summary(in Input, audience scoring.Audience) string {
	var b strings.Builder
	host := in.URL
	if u, err := url.Parse(in.URL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	platform := "a platform GeoScan could not recognise"
	switch {
	case f.det.CMS != nil && f.det.Builder != nil:
		platform = f.det.CMS.Name + " with the " + f.det.Builder.Name + " page builder"
	case f.det.CMS != nil:
		platform = f.det.CMS.Name
	case f.det.Framework != nil:
		platform = f.det.Framework.Name
	}
	if f.det.CMS != nil && f.det.Framework != nil {
		platform += " and " + f.det.Framework.Name
	}
	fmt.Fprintf(&b, "%s runs on %s and is a %s site to work on.", host, platform, f.complexity.bucket)

	worst := f.lenses[0]
	for _, l := range f.lenses[1:] {
		if l.bucket > worst.bucket {
			worst = l
		}
	}
	if worst.bucket == 0 {
		b.WriteString(" No risk lens is above low.")
	} else {
		fmt.Fprintf(&b, " The biggest risk is %s (%s)", strings.ToLower(worst.def.label), worst.Bucket())
		if len(worst.worst) > 0 {
			fmt.Fprintf(&b, ", driven by %s", quoteTitle(worst.worst[0].Check, audience))
		}
		b.WriteString(".")
	}

	first := slices.IndexFunc(f.actions, func(a action) bool { return a.quickWin })
	switch {
	case first >= 0:
		fmt.Fprintf(&b, " The first quick win: %s%s.", quoteTitle(f.actions[first].outcome.Check, audience), f.gainNote(f.actions[first], audience))
	case len(f.actions) > 0 && f.actions[0].inOrder > 0:
		a := f.actions[0]
		if len(a.with) > 0 {
			none := "neither"
			if len(a.with) > 1 {
				none = "none of them"
			}
			fmt.Fprintf(&b, " There is no quick win; the first priority is %s together with %s: %s adds to the score alone, together they add %s (%s impact, %s effort).",
				quoteTitle(a.outcome.Check, audience), joinTitles(a.with, f.byID, audience), none, points(a.inOrder), a.impact, a.effort)
		} else {
			fmt.Fprintf(&b, " There is no quick win; the first priority is %s (%s, %s impact, %s effort).", quoteTitle(a.outcome.Check, audience), "+"+points(a.inOrder), a.impact, a.effort)
		}
	case len(f.actions) > 0:
		a := f.actions[0]
		fmt.Fprintf(&b, " There is no quick win, and no fix left would raise the overall score on its own; the largest issue is %s (%s impact, %s effort).", quoteTitle(a.outcome.Check, audience), a.impact, a.effort)
	default:
		b.WriteString(" No fixes are outstanding.")
	}
	return b.String()
}

// gainNote says what an action adds to the overall score: alone, only
// together with others, or once the actions above it are made.
func (f facts) gainNote(a action, audience scoring.Audience) string {
	switch {
	case a.gain > 0:
		return " (+" + points(a.gain) + ")"
	case len(a.with) > 0:
		return " (it adds to the score only together with " + joinTitles(a.with, f.byID, audience) + ")"
	case a.inOrder > 0:
		return " (it adds to the score once the actions ranked above it are made)"
	}
	return " (it would not change the overall score as it stands)"
}

// points is "1 point" or "4.4 points".
func points(p float64) string {
	if p == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%.1f points", p)
}

func joinTitles(ids []string, byID map[string]checks.Outcome, audience scoring.Audience) string {
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		if o, ok := byID[id]; ok {
			names = append(names, quoteTitle(o.Check, audience))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func quoteTitle(c *checks.Check, audience scoring.Audience) string {
	t := "“" + c.TextFor(audience).Title + "”"
	if audience == scoring.Engineering {
		t += " (" + c.ID + ")"
	}
	return t
}
