package checks

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The authorship_freshness pillar: does the content show who wrote it and
// when, the signals AI systems use to judge expertise? Author bylines and
// Person schema, published and modified dates, recency of updates.
const pillarAuthorshipFreshness = "authorship_freshness"

// authorshipFreshnessChecks returns the pillar's checks in report order.
func authorshipFreshnessChecks() []*Check {
	return []*Check{
		authorAttributionCheck(),
		contentDatesCheck(),
		contentFreshnessCheck(),
	}
}

func authorAttributionCheck() *Check {
	return &Check{
		ID: "author_attribution", Ring: scoring.RingTrust, Pillar: pillarAuthorshipFreshness, Weight: 3, Effort: Medium,
		Marketing: Text{
			Title: "Articles name their authors",
			Why:   "AI engines favour content from identifiable experts; a visible author with a profile shows who stands behind the advice.",
			Fix:   "Show the author's name on every article and link it to an author page with their background and profiles.",
		},
		Engineering: Text{
			Title: "Author attribution on articles",
			Why:   "A visible byline plus Article.author → Person with url or sameAs lets engines attribute expertise (E-E-A-T) to a known person.",
			Fix:   "Render a byline element (rel=author link to the author page) and set Article.author to a Person node with name, url (author page) and sameAs (professional profiles).",
		},
		Eval: evalAuthorAttribution,
	}
}

// articleAuthor describes the author markup of an article page.
type articleAuthor struct {
	name        string
	profile     bool // a Person with url or sameAs
	profileURLs []string
}

func schemaAuthor(g *jsonld.Graph) articleAuthor {
	var a articleAuthor
	if g == nil {
		return a
	}
	for _, art := range g.OfType(articleTypes...) {
		var refs []any
		switch t := art.Props["author"].(type) {
		case []any:
			refs = t
		case nil:
		default:
			refs = []any{t}
		}
		for _, r := range refs {
			var person *jsonld.Entity
			var inline map[string]any
			switch t := r.(type) {
			case string:
				if a.name == "" {
					a.name = t
				}
				continue
			case map[string]any:
				inline = t
				if id, ok := t["@id"].(string); ok {
					person = g.ByID(id)
				}
			}
			if person != nil {
				if a.name == "" {
					a.name = person.String("name")
				}
				if person.Is("Person") && (person.Has("url") || person.Has("sameAs")) {
					a.profile = true
					a.profileURLs = append(a.profileURLs, slices.Concat(person.Strings("url"), person.Strings("sameAs"))...)
				}
				continue
			}
			if a.name == "" {
				a.name = jsonld.Field(inline, "name")
			}
			if slices.Contains(jsonld.TypeOf(inline), "Person") && (jsonld.Field(inline, "url") != "" || jsonld.Field(inline, "sameAs") != "") {
				a.profile = true
				a.profileURLs = append(a.profileURLs, jsonld.Field(inline, "url"))
			}
		}
	}
	return a
}

func evalAuthorAttribution(in *Input) Result {
	arts := articlePages(in)
	if len(arts) == 0 {
		return na("No article page was fetched, so authorship cannot be checked.", ev())
	}
	var rows []map[string]any
	full, some := 0, 0
	for _, p := range arts {
		a := schemaAuthor(graphOf(p))
		byline := p.Byline()
		visible := byline != "" || (a.name != "" && tokenCoverage(a.name, tokenSet(p.Text)) >= 0.8)
		if visible && a.profile {
			full++
		}
		if visible || a.name != "" {
			some++
		}
		rows = append(rows, map[string]any{
			"url": addressOf(p), "byline": excerpt(byline, 100), "schema_author": a.name,
			"visible_author": visible, "person_with_profile": a.profile, "profile_urls": nonNil(firstN(a.profileURLs, 5)),
		})
	}
	e := ev("articles", rows)
	switch {
	case full == len(arts):
		return pass(fmt.Sprintf("A visible author who is a Person with a profile URL in the markup signs %s.", allOf(len(arts), "article", "articles")), e)
	case some > 0:
		return warn(fmt.Sprintf("%s an author, and %s (visible byline plus a Person with url or sameAs).", ofTotal(some, len(arts), "article names", "articles name"), fullyAttributed(full)), e)
	}
	return fail(fmt.Sprintf("No author is named, visibly or in markup, on %s.", theN(len(arts), "article", "articles")), e)
}

// fullyAttributed says how many articles attribute their author fully.
func fullyAttributed(n int) string {
	switch n {
	case 0:
		return "none fully attributes it"
	case 1:
		return "1 fully attributes it"
	}
	return fmt.Sprintf("%d fully attribute it", n)
}

func contentDatesCheck() *Check {
	return &Check{
		ID: "content_dates", Ring: scoring.RingTrust, Pillar: pillarAuthorshipFreshness, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Articles show their dates",
			Why:   "AI engines prefer current information and need to know when something was written or updated to trust it.",
			Fix:   "Show the publish date and the last-updated date on every article, and make sure your SEO plugin includes them in its markup.",
		},
		Engineering: Text{
			Title: "Machine-readable content dates",
			Why:   "datePublished/dateModified, article:published_time/article:modified_time and <time datetime> let engines judge recency and prefer current sources.",
			Fix:   "Emit Article.datePublished and dateModified in ISO 8601, the article:published_time and article:modified_time meta tags, and wrap the visible date in <time datetime=\"…\">.",
		},
		Eval: evalContentDates,
	}
}

// dateLayouts are the date forms found in markup, meta tags and sitemaps.
var dateLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00",
	"2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02", "2006-01", time.RFC1123, time.RFC1123Z,
}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	if t, err := http.ParseTime(s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// datedValue is a date found on the site and where it came from.
type datedValue struct {
	source, url, raw string
	at               time.Time
}

// pageDates collects the publication and modification dates of a page:
// schema.org datePublished/dateModified, Open Graph article times and,
// when withTimeTags is set, <time datetime> values.
func pageDates(p *page.Page, withTimeTags bool) []datedValue {
	var out []datedValue
	add := func(source, raw string) {
		if t, ok := parseDate(raw); ok {
			out = append(out, datedValue{source, addressOf(p), raw, t})
		}
	}
	if g := graphOf(p); g != nil {
		for _, e := range g.Entities {
			kind := "node"
			if len(e.Types) > 0 {
				kind = e.Types[0]
			}
			add("schema "+kind+".dateModified", e.String("dateModified"))
			add("schema "+kind+".datePublished", e.String("datePublished"))
		}
	}
	for _, k := range []string{"article:modified_time", "article:published_time", "og:updated_time"} {
		add("meta "+k, p.MetaContent(k))
	}
	if withTimeTags {
		for _, v := range p.TimeValues {
			add("<time datetime>", v)
		}
	}
	return out
}

func evalContentDates(in *Input) Result {
	arts := articlePages(in)
	if len(arts) == 0 {
		return na("No article page was fetched; publication dates are judged on articles.", ev())
	}
	var rows []map[string]any
	dated := 0
	for _, p := range arts {
		ds := pageDates(p, true)
		var found []string
		for _, d := range ds {
			found = append(found, d.source+" = "+d.raw)
		}
		if len(ds) > 0 {
			dated++
		}
		rows = append(rows, map[string]any{"url": addressOf(p), "dates": nonNil(firstN(found, 6))})
	}
	e := ev("articles", rows, "dated", dated)
	switch {
	case dated == len(arts):
		return pass(fmt.Sprintf("Machine-readable publication or modification dates are on %s.", allOf(len(arts), "article", "articles")), e)
	case dated > 0:
		return warn(fmt.Sprintf("%s machine-readable dates.", ofTotal(dated, len(arts), "article carries", "articles carry")), e)
	}
	return fail(fmt.Sprintf("There is no machine-readable publication or modification date on %s.", theN(len(arts), "article", "articles")), e)
}

func contentFreshnessCheck() *Check {
	return &Check{
		ID: "content_freshness", Ring: scoring.RingTrust, Pillar: pillarAuthorshipFreshness, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Content is kept up to date",
			Why:   "AI answers lean towards recent sources; a site with no update in a year or more looks abandoned.",
			Fix:   "Review and update key pages regularly and publish new content at least every few months.",
		},
		Engineering: Text{
			Title: "Content freshness",
			Why:   "Recency is a ranking input for AI search; the newest of dateModified, sitemap lastmod and Last-Modified tells engines whether the site is maintained.",
			Fix:   "Update content and make sure dateModified, sitemap <lastmod> and the Last-Modified header reflect real edits (not the build time).",
		},
		Eval: evalContentFreshness,
	}
}

func evalContentFreshness(in *Input) Result {
	var all []datedValue
	for _, p := range everyPage(in) {
		all = append(all, pageDates(p, false)...)
	}
	sitemapDates := 0
	if in.Site != nil {
		for _, u := range in.Site.SitemapURLs {
			if t, ok := parseDate(u.LastMod); ok {
				sitemapDates++
				all = append(all, datedValue{"sitemap lastmod", u.Loc, u.LastMod, t})
			}
		}
		if h := in.Site.Home; h != nil && h.Header != nil {
			lm := h.Header.Get("Last-Modified")
			t, ok := parseDate(lm)
			// A Last-Modified equal to the response time is generated on
			// the fly and says nothing about when the content changed.
			if d, dok := parseDate(h.Header.Get("Date")); ok && (!dok || d.Sub(t) > time.Minute) {
				all = append(all, datedValue{"Last-Modified header", h.FinalURL, lm, t})
			}
		}
	}
	var newest *datedValue
	future := 0
	for i := range all {
		d := &all[i]
		if d.at.After(in.Now.Add(48 * time.Hour)) {
			future++
			continue
		}
		if newest == nil || d.at.After(newest.at) {
			newest = d
		}
	}
	if newest == nil {
		return na("No modification or publication date was found in markup, meta tags, the sitemap or the Last-Modified header.", ev("dates_seen", len(all), "future_dates_ignored", future))
	}
	days := int(in.Now.Sub(newest.at).Hours() / 24)
	days = max(days, 0)
	e := ev("newest", newest.at.UTC().Format(time.RFC3339), "source", newest.source, "url", newest.url, "age_days", days,
		"dates_seen", len(all), "sitemap_lastmods", sitemapDates, "future_dates_ignored", future)
	ago := "today"
	if days > 0 {
		ago = plural(days, "day", "days") + " ago"
	}
	s := fmt.Sprintf("The newest content date is %s (%s, %s).", newest.at.UTC().Format("2006-01-02"), newest.source, ago)
	switch {
	case days <= 365:
		return pass(s, e)
	case days <= 730:
		return warn(s, e)
	}
	return fail(s, e)
}
