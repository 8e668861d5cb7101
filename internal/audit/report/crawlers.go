package report

import (
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// An analysed access log in the contract's words: what the API's crawler
// logs show, and the report's crawler_activity, are mapped here once.

// CrawlerInput is an analysed log of the site set beside this audit.
type CrawlerInput struct {
	LogID  uuid.UUID
	Result crawlerlog.Result
	// Cross is the log set beside this audit's robots.txt and pages.
	Cross crawlerlog.CrossCheckResult
	// ScanID is the audit's scan, which the cross-check is of.
	ScanID uuid.UUID
}

// AttachCrawlerActivity records in both editions of doc what the log says
// AI crawlers did on the site, beside this audit.
func AttachCrawlerActivity(doc *Stored, in CrawlerInput) {
	for _, r := range []*api.Report{&doc.Marketing, &doc.Engineering} {
		out := &api.CrawlerActivity{
			LogID: in.LogID, FirstSeen: rfc3339(in.Result.FirstSeen), LastSeen: rfc3339(in.Result.LastSeen),
			Bots: make([]api.CrawlerLogBot, 0, len(in.Result.Bots)),
		}
		for _, b := range in.Result.Bots {
			out.Bots = append(out.Bots, CrawlerBot(b, false, true))
		}
		scanID := in.ScanID
		out.CrossCheck = CrawlerCrossCheck(in.Cross, &scanID)
		r.CrawlerActivity = out
	}
}

func rfc3339(s string) *time.Time {
	if s == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// StatusHits lists hits by status, lowest status first.
func StatusHits(m map[int]int64) []api.StatusHits {
	out := make([]api.StatusHits, 0, len(m))
	for _, st := range slices.Sorted(maps.Keys(m)) {
		out = append(out, api.StatusHits{Status: st, Hits: m[st]})
	}
	return out
}

// CrawlerBot maps one crawler's hits; days and pages add its breakdowns.
func CrawlerBot(b crawlerlog.Bot, days, pages bool) api.CrawlerLogBot {
	out := api.CrawlerLogBot{
		Token: b.Token, Owner: b.Owner, Role: api.CrawlerLogBotRole(b.Role),
		Hits: b.Hits, VerifiedHits: b.VerifiedHits, UnverifiedHits: b.UnverifiedHits,
		Statuses: StatusHits(b.Statuses),
		Verification: api.CrawlerLogVerification{
			Method:     api.CrawlerLogVerificationMethod(b.Verification.Method),
			FailedHits: b.Verification.FailedHits, NotCheckedHits: b.Verification.NotCheckedHits,
		},
	}
	if days {
		ds := make([]api.CrawlerLogDay, 0, len(b.Days))
		for _, d := range b.Days {
			if t, err := time.Parse(time.DateOnly, d.Date); err == nil {
				ds = append(ds, api.CrawlerLogDay{Date: openapi_types.Date{Time: t}, Hits: d.Hits, VerifiedHits: d.VerifiedHits})
			}
		}
		out.Days = &ds
	}
	if pages {
		ps := make([]api.CrawlerLogPage, 0, len(b.Pages))
		for _, p := range b.Pages {
			ps = append(ps, api.CrawlerLogPage{Path: p.Path, Hits: p.Hits, VerifiedHits: p.VerifiedHits, Statuses: StatusHits(p.Statuses)})
		}
		out.Pages = &ps
		out.PagesTruncated = &b.PagesTruncated
	}
	return out
}

// CrawlerCrossCheck maps a measured cross-check made with the audit of
// scanID.
func CrawlerCrossCheck(c crawlerlog.CrossCheckResult, scanID *uuid.UUID) *api.CrawlerLogCrossCheck {
	rb := c.RefusedButAllowed
	out := &api.CrawlerLogCrossCheck{
		Status: api.CrossCheckMeasured, ScanID: scanID,
		RefusedButAllowed: api.CrawlerLogRefusals{
			Measured: rb.Measured, Reason: nonEmpty(rb.Reason), Count: rb.Count, Hits: rb.Hits, Truncated: rb.Truncated,
			Pages: make([]api.CrawlerLogRefusal, 0, len(rb.Pages)),
		},
		NeverCrawled: api.CrawlerLogNeverCrawled{
			Measured: c.NeverCrawled.Measured, Reason: nonEmpty(c.NeverCrawled.Reason), Count: c.NeverCrawled.Count,
			Pages: append([]string{}, c.NeverCrawled.Pages...),
		},
	}
	for _, r := range rb.Pages {
		out.RefusedButAllowed.Pages = append(out.RefusedButAllowed.Pages, api.CrawlerLogRefusal{
			Token: r.Token, Owner: r.Owner, Role: r.Role, Path: r.Path, Hits: r.Hits, VerifiedHits: r.VerifiedHits,
			Statuses: StatusHits(r.Statuses), Robots: r.Robots,
		})
	}
	return out
}

// CrawlerCrossCheckNotMeasured is a cross-check that could not be made,
// and why.
func CrawlerCrossCheckNotMeasured(reason string, scanID *uuid.UUID) *api.CrawlerLogCrossCheck {
	return &api.CrawlerLogCrossCheck{
		Status: api.CrossCheckNotMeasured, Reason: &reason, ScanID: scanID,
		RefusedButAllowed: api.CrawlerLogRefusals{Reason: &reason, Pages: []api.CrawlerLogRefusal{}},
		NeverCrawled:      api.CrawlerLogNeverCrawled{Reason: &reason, Pages: []string{}},
	}
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
