// Package planlimits owns the limits of the subscription plans and how an
// organization's overrides replace them.
package planlimits

// Limits are what one organization may do.
type Limits struct {
	DailyScans      int
	ActiveSchedules int
	WritePerMinute  int
	ReadPerMinute   int
	// MaxPages is the largest page budget of one scan: 1 audits the
	// homepage alone, more makes it a whole-site audit.
	MaxPages int
	// MaxCompetitors is the most competitors' sites one scan benchmarks
	// against; each is audited at the scan's page budget.
	MaxCompetitors int
	// CrawlRate is the most requests per second a whole-site audit's crawl
	// makes to the site, and CrawlConcurrency the most it has in flight at
	// once: how hard the organization's scans may knock on a site. A
	// robots.txt Crawl-delay slows a crawl further, never speeds it up.
	CrawlRate        float64
	CrawlConcurrency int
	// RenderPages is the most pages of one whole-site audit a browser
	// renders beside their raw HTML, the homepage included (one page of
	// each template first); the others are judged from their HTML alone.
	RenderPages int
}

// The crawl's politeness every plan starts from, and the bounds of an
// organization's overrides of it: above MaxCrawlRate or MaxCrawlConcurrency
// a crawl is no longer polite to a site it does not own.
const (
	DefaultCrawlRate        = 2.0
	DefaultCrawlConcurrency = 2
	MaxCrawlRate            = 20.0
	MaxCrawlConcurrency     = 16
)

// Defaults returns the limits of a plan; an unknown plan gets the free ones.
// Every plan crawls at the default politeness; an organization that owns
// the sites it audits may be given more (Overrides).
func Defaults(name string) Limits {
	if name == "pro" {
		return Limits{
			DailyScans: 200, ActiveSchedules: 50, WritePerMinute: 60, ReadPerMinute: 1200, MaxPages: 500, MaxCompetitors: 5,
			CrawlRate: DefaultCrawlRate, CrawlConcurrency: DefaultCrawlConcurrency, RenderPages: 20,
		}
	}
	return Limits{
		DailyScans: 5, ActiveSchedules: 5, WritePerMinute: 10, ReadPerMinute: 120, MaxPages: 1, MaxCompetitors: 1,
		CrawlRate: DefaultCrawlRate, CrawlConcurrency: DefaultCrawlConcurrency, RenderPages: 1,
	}
}

// Overrides are an organization's own values; nil keeps the plan's.
type Overrides struct {
	DailyScans       *int32
	ActiveSchedules  *int32
	WritePerMinute   *int32
	ReadPerMinute    *int32
	CrawlRate        *float64
	CrawlConcurrency *int32
}

// For returns the limits in force for an organization on plan name.
func For(name string, o Overrides) Limits {
	l := Defaults(name)
	apply := func(dst *int, v *int32) {
		if v != nil {
			*dst = int(*v)
		}
	}
	apply(&l.DailyScans, o.DailyScans)
	apply(&l.ActiveSchedules, o.ActiveSchedules)
	apply(&l.WritePerMinute, o.WritePerMinute)
	apply(&l.ReadPerMinute, o.ReadPerMinute)
	apply(&l.CrawlConcurrency, o.CrawlConcurrency)
	if o.CrawlRate != nil {
		l.CrawlRate = *o.CrawlRate
	}
	// The database holds overrides within these bounds; a value outside
	// them (or a plan's) is held to them here too, so a crawl is never
	// unbounded by a mistake in a row.
	l.CrawlRate = min(max(l.CrawlRate, 0.1), MaxCrawlRate)
	l.CrawlConcurrency = min(max(l.CrawlConcurrency, 1), MaxCrawlConcurrency)
	return l
}
