package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// MaxPagesError is CreateScan's answer to a page budget above the plan's.
type MaxPagesError struct {
	// Limit is the largest page budget the organization's plan allows.
	Limit int
}

func (e *MaxPagesError) Error() string {
	return fmt.Sprintf("page budget above the plan's maximum of %d", e.Limit)
}

// PageStatus is what became of one page of a whole-site audit.
type PageStatus string

// The page states.
const (
	PageAudited  PageStatus = "audited"
	PageRedirect PageStatus = "redirect"
	PageNotHTML  PageStatus = "not_html"
	PageError    PageStatus = "error"
)

// PageCheck is one page-level check's result on a page.
type PageCheck struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Summary string `json:"summary"`
}

// ScanPage is one page a whole-site audit judged.
type ScanPage struct {
	ID         uuid.UUID
	ScanID     uuid.UUID
	Position   int
	URL        string
	Group      string
	Type       string
	Status     PageStatus
	HTTPStatus int
	Score      *float64
	Checks     []PageCheck
	Error      string
	CreatedAt  time.Time
}

func scanPageOf(r db.ScanPage) (ScanPage, error) {
	p := ScanPage{
		ID: r.ID, ScanID: r.ScanID, Position: int(r.Position), URL: r.URL, Group: r.Group, Type: r.Type,
		Status: PageStatus(r.Status), HTTPStatus: int(r.HttpStatus), Score: r.Score, Error: r.Error,
		CreatedAt: r.CreatedAt, Checks: []PageCheck{},
	}
	if err := json.Unmarshal(r.Checks, &p.Checks); err != nil {
		return ScanPage{}, fmt.Errorf("decode checks of page %s: %w", r.ID, err)
	}
	return p, nil
}

// NewScanPage is a page to store.
type NewScanPage struct {
	ScanID     uuid.UUID
	Position   int
	URL        string
	Group      string
	Type       string
	Status     PageStatus
	HTTPStatus int
	Score      *float64
	Checks     []PageCheck
	Error      string
}

// AddScanPage stores a page of a scan; a page already stored at that
// position or with that URL is kept as it is. A restarted job does not
// meet its earlier attempt's pages here: ResetScanPages dropped them.
func (s *Store) AddScanPage(ctx context.Context, p NewScanPage) error {
	if p.Position < 0 || p.Position > math.MaxInt32 || p.HTTPStatus < 0 || p.HTTPStatus > math.MaxInt32 {
		return fmt.Errorf("store page %q: position %d or status %d out of range", p.URL, p.Position, p.HTTPStatus)
	}
	checks := p.Checks
	if checks == nil {
		checks = []PageCheck{}
	}
	raw, err := json.Marshal(checks)
	if err != nil {
		return fmt.Errorf("encode checks of page %q: %w", p.URL, err)
	}
	err = s.q.InsertScanPage(ctx, s.conn, db.InsertScanPageParams{
		ScanID: p.ScanID, Position: int32(p.Position), URL: p.URL, PageGroup: p.Group, Type: p.Type,
		Status: string(p.Status), HttpStatus: int32(p.HTTPStatus), Score: p.Score, Checks: raw, Error: p.Error,
	})
	if err != nil {
		return fmt.Errorf("insert page %q: %w", p.URL, err)
	}
	return nil
}

// SetScanProgress records a running whole-site audit's pages judged and
// planned.
func (s *Store) SetScanProgress(ctx context.Context, scanID uuid.UUID, done, planned int) error {
	clamp := func(n int) int32 { return int32(min(max(n, 0), math.MaxInt32)) }
	return s.q.SetScanProgress(ctx, s.conn, db.SetScanProgressParams{
		ID: scanID, PagesDone: clamp(done), PagesPlanned: new(clamp(planned)),
	})
}

// ResetScanPages drops the pages and progress of a running scan's earlier
// attempt, before its whole-site audit crawls again from the start: the
// pages stored are then those of one crawl.
func (s *Store) ResetScanPages(ctx context.Context, scanID uuid.UUID) error {
	if err := s.q.ResetScanPages(ctx, s.conn, scanID); err != nil {
		return fmt.Errorf("reset pages of scan %s: %w", scanID, err)
	}
	return nil
}

// SiteSummary is a completed whole-site audit's roll-up, read back from
// the pages it stored.
type SiteSummary struct {
	ScanID      uuid.UUID
	CompletedAt time.Time
	// PagesAudited are the pages judged.
	PagesAudited int
	// Score is the mean score of the pages scored; nil when none was.
	Score *float64
	// Affected is, per page-level check, the judged pages it failed or
	// warned on; a check that did neither on any page is absent.
	Affected map[string]int
}

// PreviousSiteSummary is the roll-up of the previous whole-site audit of
// scan's site (the same organization and URL, completed, created before
// it); ErrNotFound when there is none.
func (s *Store) PreviousSiteSummary(ctx context.Context, scan Scan) (SiteSummary, error) {
	prev, err := s.q.PreviousSiteScan(ctx, s.conn, db.PreviousSiteScanParams{
		OrgID: scan.OrgID, URL: scan.URL, CreatedAt: scan.CreatedAt, ID: scan.ID,
	})
	if err != nil {
		return SiteSummary{}, notFound(err)
	}
	sum := SiteSummary{ScanID: prev.ID, Affected: map[string]int{}}
	if prev.CompletedAt != nil {
		sum.CompletedAt = *prev.CompletedAt
	}
	totals, err := s.q.SitePageTotals(ctx, s.conn, prev.ID)
	if err != nil {
		return SiteSummary{}, fmt.Errorf("pages of scan %s: %w", prev.ID, err)
	}
	sum.PagesAudited = int(totals.PagesAudited)
	if totals.PagesScored > 0 {
		sum.Score = &totals.MeanScore
	}
	counts, err := s.q.SiteCheckCounts(ctx, s.conn, prev.ID)
	if err != nil {
		return SiteSummary{}, fmt.Errorf("checks of scan %s: %w", prev.ID, err)
	}
	for _, c := range counts {
		sum.Affected[c.CheckID] = int(c.PagesAffected)
	}
	return sum, nil
}

// PageSort is the order of a scan's pages in a list.
type PageSort string

// The orders; unjudged pages (no score) come last in both score orders.
const (
	PageSortPosition  PageSort = "position"
	PageSortURL       PageSort = "url"
	PageSortScore     PageSort = "score"
	PageSortScoreDesc PageSort = "-score"
)

// PageFilter selects a scan's pages; nil fields do not filter.
type PageFilter struct {
	Status *PageStatus
	// Check selects the pages where that check failed or warned.
	Check    *string
	Group    *string
	ScoreLt  *float64
	ScoreGte *float64
}

// ListScanPages returns up to limit pages of a scan of the organization in
// the order sort names, after the page at position after when it is set.
func (s *Store) ListScanPages(ctx context.Context, orgID, scanID uuid.UUID, f PageFilter, sort PageSort, after *int, limit int) ([]ScanPage, error) {
	var afterPos *int32
	if after != nil {
		afterPos = new(int32(min(max(*after, 0), math.MaxInt32)))
	}
	rows, err := s.q.ListScanPages(ctx, s.conn, db.ListScanPagesParams{
		OrgID: orgID, ScanID: scanID, AfterPosition: afterPos,
		Status: (*string)(f.Status), PageGroup: f.Group, ScoreLt: f.ScoreLt, ScoreGte: f.ScoreGte, CheckID: f.Check,
		Sort: string(sort), RowLimit: int32(min(max(limit, 0), math.MaxInt32)),
	})
	if err != nil {
		return nil, err
	}
	out := make([]ScanPage, 0, len(rows))
	for _, r := range rows {
		p, err := scanPageOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// GetScanPage returns one page of a scan of the organization.
func (s *Store) GetScanPage(ctx context.Context, orgID, scanID, id uuid.UUID) (ScanPage, error) {
	r, err := s.q.GetScanPage(ctx, s.conn, db.GetScanPageParams{OrgID: orgID, ScanID: scanID, ID: id})
	if err != nil {
		return ScanPage{}, notFound(err)
	}
	return scanPageOf(r)
}

// CountScanPages counts the pages stored for a scan.
func (s *Store) CountScanPages(ctx context.Context, scanID uuid.UUID) (int, error) {
	n, err := s.q.CountScanPages(ctx, s.conn, scanID)
	return int(n), err
}

// PageComparison is how the pages of two whole-site audits compare.
type PageComparison struct {
	// InBoth are the URLs both scans judged; OnlyBase and OnlyTarget the
	// pages of one scan whose URL the other lacks.
	InBoth, OnlyBase, OnlyTarget int
	// Changed are pages of both, the largest score change first.
	Changed []PageDelta
}

// PageDelta is one URL's score in two scans (nil when not judged).
type PageDelta struct {
	URL, Group   string
	Base, Target *float64
}

// ComparePages compares the pages of two scans by URL, listing at most
// limit of those in both. The caller has checked that both scans are the
// organization's.
func (s *Store) ComparePages(ctx context.Context, baseID, targetID uuid.UUID, limit int) (PageComparison, error) {
	n, err := s.q.CountComparedPages(ctx, s.conn, db.CountComparedPagesParams{BaseID: baseID, TargetID: targetID})
	if err != nil {
		return PageComparison{}, fmt.Errorf("count compared pages: %w", err)
	}
	rows, err := s.q.ComparePages(ctx, s.conn, db.ComparePagesParams{BaseID: baseID, TargetID: targetID, RowLimit: int32(min(max(limit, 0), math.MaxInt32))}) //nolint:gosec // clamped
	if err != nil {
		return PageComparison{}, fmt.Errorf("compare pages: %w", err)
	}
	out := PageComparison{
		InBoth: int(n.InBoth), OnlyBase: int(n.BasePages - n.InBoth), OnlyTarget: int(n.TargetPages - n.InBoth),
		Changed: make([]PageDelta, 0, len(rows)),
	}
	for _, r := range rows {
		out.Changed = append(out.Changed, PageDelta{URL: r.URL, Group: r.Group, Base: r.BaseScore, Target: r.TargetScore})
	}
	return out, nil
}
