package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
	"github.com/geoscan/geoscan/internal/web/auth"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

// audienceOf reads the audience parameter; each operation has its own
// generated type for it, all strings underneath.
func audienceOf[T ~string](a *T) scoring.Audience {
	if a == nil || *a == "" {
		return scoring.Marketing
	}
	return scoring.Audience(*a)
}

// completedScan loads a scan of the caller and insists it is completed.
func (s *Server) completedScan(ctx context.Context, id uuid.UUID, param string) (store.Scan, error) {
	scan, err := s.loadScan(ctx, id)
	if err != nil {
		var apiErr *apierror.Error
		if errors.As(err, &apiErr) && param != "scan_id" {
			apiErr.Param = param
		}
		return scan, err
	}
	if scan.Status != store.ScanCompleted {
		return scan, apierror.New(apierror.CodeScanNotComplete, param, "%s", noResultsYet(scan, "Its results are"))
	}
	return scan, nil
}

// noResultsYet says why a scan that has not completed has none of what was
// asked for: "Scan … failed, so it has no results." or "Scan … has not
// completed yet; it is running. Its results are available when it
// completes."
func noResultsYet(scan store.Scan, what string) string {
	if scan.Status == store.ScanFailed {
		return fmt.Sprintf("Scan %s failed, so it has no results.", scan.ID)
	}
	return fmt.Sprintf("Scan %s has not completed yet; it %s. %s available when it completes.", scan.ID, scan.Status.Phrase(), what)
}

func (s *Server) report(ctx context.Context, scan store.Scan, audience scoring.Audience) (api.Report, error) {
	row, err := s.d.Store.GetReport(ctx, scan.ID)
	if err != nil {
		return api.Report{}, fmt.Errorf("report of completed scan %s: %w", scan.ID, err)
	}
	var doc report.Stored
	if err := json.Unmarshal(row.Body, &doc); err != nil {
		return api.Report{}, fmt.Errorf("decode report %s: %w", scan.ID, err)
	}
	return doc.For(audience), nil
}

// GetScanReport returns the report of a completed scan for an audience.
func (s *Server) GetScanReport(ctx context.Context, req api.GetScanReportRequestObject) (api.GetScanReportResponseObject, error) {
	scan, err := s.completedScan(ctx, req.ScanID, "scan_id")
	if err != nil {
		return nil, err
	}
	r, err := s.report(ctx, scan, audienceOf(req.Params.Audience))
	if err != nil {
		return nil, err
	}
	return api.GetScanReport200JSONResponse{Body: r}, nil
}

// ListScanChecks returns the check results of a completed scan.
func (s *Server) ListScanChecks(ctx context.Context, req api.ListScanChecksRequestObject) (api.ListScanChecksResponseObject, error) {
	scan, err := s.completedScan(ctx, req.ScanID, "scan_id")
	if err != nil {
		return nil, err
	}
	audience := audienceOf(req.Params.Audience)
	r, err := s.report(ctx, scan, audience)
	if err != nil {
		return nil, err
	}
	out := api.CheckList{ScanID: scan.ID, Audience: api.CheckListAudience(audience), Data: make([]api.CheckResult, 0, len(r.Checks))}
	for _, c := range r.Checks {
		if req.Params.Ring != nil && c.Ring != *req.Params.Ring {
			continue
		}
		if req.Params.Status != nil && c.Status != *req.Params.Status {
			continue
		}
		out.Data = append(out.Data, c)
	}
	out.Counts = report.Counts(out.Data)
	return api.ListScanChecks200JSONResponse{Body: out}, nil
}

// GetScanCheck returns one check result of a completed scan.
func (s *Server) GetScanCheck(ctx context.Context, req api.GetScanCheckRequestObject) (api.GetScanCheckResponseObject, error) {
	scan, err := s.completedScan(ctx, req.ScanID, "scan_id")
	if err != nil {
		return nil, err
	}
	r, err := s.report(ctx, scan, audienceOf(req.Params.Audience))
	if err != nil {
		return nil, err
	}
	for _, c := range r.Checks {
		if c.ID == req.CheckID {
			return api.GetScanCheck200JSONResponse{Body: c}, nil
		}
	}
	return nil, apierror.New(apierror.CodeCheckNotFound, "check_id", "Scan %s has no check %q.", scan.ID, req.CheckID)
}

// GetScanTriage returns the triage dossier once it has been computed.
func (s *Server) GetScanTriage(ctx context.Context, req api.GetScanTriageRequestObject) (api.GetScanTriageResponseObject, error) {
	scan, err := s.loadScan(ctx, req.ScanID)
	if err != nil {
		return nil, err
	}
	if scan.Status != store.ScanCompleted {
		return nil, apierror.New(apierror.CodeTriageNotAvailable, "scan_id", "%s", noResultsYet(scan, "Its triage dossier is"))
	}
	row, err := s.d.Store.GetTriage(ctx, scan.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierror.New(apierror.CodeTriageNotAvailable, "scan_id",
			"The triage dossier of scan %s has not been computed yet.", scan.ID)
	}
	if err != nil {
		return nil, err
	}
	var stored triage.Stored
	if err := json.Unmarshal(row.Body, &stored); err != nil {
		return nil, fmt.Errorf("decode triage %s: %w", scan.ID, err)
	}
	return api.GetScanTriage200JSONResponse{Body: stored.For(audienceOf(req.Params.Audience))}, nil
}

// GetScanPdf returns the report of a completed scan as a PDF: the one
// rendered before from the same stored documents when this process keeps
// it, otherwise rendered now, which counts against the organization's
// api_render limit too. The scan is loaded first, so a deleted scan or
// another organization's is a 404 whatever is kept.
func (s *Server) GetScanPdf(ctx context.Context, req api.GetScanPdfRequestObject) (api.GetScanPdfResponseObject, error) {
	scan, err := s.completedScan(ctx, req.ScanID, "scan_id")
	if err != nil {
		return nil, err
	}
	in := pdfInputs{scan: scan, audience: audienceOf(req.Params.Audience), cjkFont: s.d.PDFCJKFont}
	if in.report, err = s.d.Store.GetReport(ctx, scan.ID); err != nil {
		return nil, fmt.Errorf("report of completed scan %s: %w", scan.ID, err)
	}
	// The PDF has a Site Triage page; without a dossier (being recomputed)
	// it says so rather than failing the download.
	switch t, err := s.d.Store.GetTriage(ctx, scan.ID); {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		in.triage = &t
	}
	if in.brand, err = s.d.Store.GetBranding(ctx, scan.OrgID); err != nil {
		return nil, err
	}
	key := in.key()
	pdf, ok := s.pdfs.get(key)
	if !ok {
		if err := ratelimit.Charge(ctx, ratelimit.GroupRender); err != nil {
			return nil, err
		}
		if pdf, err = s.pdfs.render(ctx, key, in.render); err != nil {
			return nil, err
		}
	}
	if notModified(req.Params.IfNoneMatch, pdf.etag) {
		return api.GetScanPdf304Response{Headers: api.GetScanPdf304ResponseHeaders{ETag: &pdf.etag}}, nil
	}
	return api.GetScanPdf200ApplicationPdfResponse{
		Body: bytes.NewReader(pdf.body), ContentLength: int64(len(pdf.body)),
		Headers: api.GetScanPdf200ResponseHeaders{ContentDisposition: &pdf.disposition, ETag: &pdf.etag},
	}, nil
}

// CompareScans returns target − base for the overall score, rings, pillars
// and checks of two completed scans of the organization.
func (s *Server) CompareScans(ctx context.Context, req api.CompareScansRequestObject) (api.CompareScansResponseObject, error) {
	base, err := s.completedScan(ctx, req.Params.Base, "base")
	if err != nil {
		return nil, err
	}
	target, err := s.completedScan(ctx, req.Params.Target, "target")
	if err != nil {
		return nil, err
	}
	br, err := s.report(ctx, base, scoring.Marketing)
	if err != nil {
		return nil, err
	}
	tr, err := s.report(ctx, target, scoring.Marketing)
	if err != nil {
		return nil, err
	}
	out := compareReports(br, tr, base.CompletedAt, target.CompletedAt)
	if base.MaxPages > 1 || target.MaxPages > 1 {
		pc, err := s.d.Store.ComparePages(ctx, base.ID, target.ID, comparedPages)
		if err != nil {
			return nil, err
		}
		out.Pages = pageComparison(pc)
	}
	return api.CompareScans200JSONResponse{Body: out}, nil
}

// comparedPages is how many pages of both scans a comparison lists.
const comparedPages = 50

func pageComparison(pc store.PageComparison) *api.PageComparison {
	out := &api.PageComparison{InBoth: pc.InBoth, OnlyBase: pc.OnlyBase, OnlyTarget: pc.OnlyTarget, Changed: make([]api.PageDelta, 0, len(pc.Changed))}
	for _, p := range pc.Changed {
		d := api.PageDelta{URL: p.URL, Group: p.Group, Base: p.Base, Target: p.Target}
		if p.Base != nil && p.Target != nil {
			v := math.Round((*p.Target-*p.Base)*10) / 10
			d.Delta = &v
		}
		out.Changed = append(out.Changed, d)
	}
	return out
}

func compareReports(b, t api.Report, bDone, tDone *time.Time) api.ScanComparison {
	out := api.ScanComparison{
		Base:                 api.ScanRef{ID: b.ScanID, URL: b.URL, ScoringVersion: b.ScoringVersion},
		Target:               api.ScanRef{ID: t.ScanID, URL: t.URL, ScoringVersion: t.ScoringVersion},
		SameURL:              b.URL == t.URL,
		ScoringVersionsMatch: b.ScoringVersion == t.ScoringVersion,
		Overall:              delta(&b.OverallScore, &t.OverallScore),
	}
	if bDone != nil {
		out.Base.CompletedAt = bDone.UTC()
	}
	if tDone != nil {
		out.Target.CompletedAt = tDone.UTC()
	}
	ringScore := func(r api.RingResult) *float64 { v := float64(r.Score); return &v }
	out.Rings.Search = delta(ringScore(b.Rings.Search), ringScore(t.Rings.Search))
	out.Rings.Visibility = delta(ringScore(b.Rings.Visibility), ringScore(t.Rings.Visibility))
	out.Rings.Trust = delta(ringScore(b.Rings.Trust), ringScore(t.Rings.Trust))

	type pillarKey struct {
		ring api.Ring
		id   string
	}
	pillarScores := func(r api.Report) (map[pillarKey]*float64, []pillarKey) {
		m := map[pillarKey]*float64{}
		var order []pillarKey
		for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
			for _, p := range ring.Pillars {
				k := pillarKey{ring.Ring, p.ID}
				if p.Score != nil {
					v := float64(*p.Score)
					m[k] = &v
				} else {
					m[k] = nil
				}
				order = append(order, k)
			}
		}
		return m, order
	}
	bp, border := pillarScores(b)
	tp, torder := pillarScores(t)
	out.Pillars = []api.PillarDelta{}
	seen := map[pillarKey]bool{}
	for _, k := range append(border, torder...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		d := delta(bp[k], tp[k])
		out.Pillars = append(out.Pillars, api.PillarDelta{Base: d.Base, Delta: d.Delta, Pillar: k.id, Ring: k.ring, Target: d.Target})
	}
	out.Checks = compareChecks(b.Checks, t.Checks, &out.Summary)
	return out
}

func delta(b, t *float64) api.ScoreDelta {
	d := api.ScoreDelta{Base: b, Target: t}
	if b != nil && t != nil {
		v := math.Round((*t-*b)*10) / 10
		d.Delta = &v
	}
	return d
}

// compareChecks pairs checks by id in the target's order, then the base's
// leftovers, and counts how each changed.
func compareChecks(base, target []api.CheckResult, sum *api.ComparisonSummary) []api.CheckDelta {
	byID := make(map[string]api.CheckResult, len(base))
	for _, c := range base {
		byID[c.ID] = c
	}
	out := make([]api.CheckDelta, 0, len(target))
	inTarget := make(map[string]bool, len(target))
	for _, t := range target {
		inTarget[t.ID] = true
		ts := api.CheckDeltaTargetStatus(t.Status)
		d := api.CheckDelta{CheckID: t.ID, Ring: t.Ring, Pillar: t.Pillar, TargetStatus: &ts, TargetScore: t.Score}
		b, ok := byID[t.ID]
		if !ok {
			d.Change = api.Added
			sum.Added++
			out = append(out, d)
			continue
		}
		bs := api.CheckDeltaBaseStatus(b.Status)
		d.BaseStatus, d.BaseScore = &bs, b.Score
		d.Delta = delta(b.Score, t.Score).Delta
		switch {
		case d.Delta != nil && *d.Delta > 0:
			d.Change = api.Improved
			sum.Improved++
		case d.Delta != nil && *d.Delta < 0:
			d.Change = api.Regressed
			sum.Regressed++
		default:
			d.Change = api.Unchanged
			sum.Unchanged++
		}
		out = append(out, d)
	}
	for _, b := range base {
		if inTarget[b.ID] {
			continue
		}
		bs := api.CheckDeltaBaseStatus(b.Status)
		out = append(out, api.CheckDelta{CheckID: b.ID, Ring: b.Ring, Pillar: b.Pillar, BaseStatus: &bs, BaseScore: b.Score, Change: api.Removed})
		sum.Removed++
	}
	return out
}

// exportRowsTrailer is the HTTP trailer that ends a complete export.
const exportRowsTrailer = "X-Export-Rows"

// exportIdle is how long an export waits for a client that stopped
// reading before giving up on it; while the client reads, an export has no
// time limit.
const exportIdle = 30 * time.Second

// ExportScans streams every matching scan (or, with include=checks, every
// check of those scans, with include=pages every page of their whole-site
// audits) as CSV from one COPY … TO STDOUT. The work happens
// when the response is written (csvExport), where the writer is at hand.
func (s *Server) ExportScans(ctx context.Context, req api.ExportScansRequestObject) (api.ExportScansResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	prm := req.Params
	filter, err := s.scanFilter(prm.Status, prm.Project, prm.URL, prm.Domain, prm.CreatedAfter, prm.CreatedBefore)
	if err != nil {
		return nil, err
	}
	e := &csvExport{s: s, ctx: ctx, p: p, filter: filter, rows: store.ExportScans}
	if prm.Include != nil {
		switch *prm.Include {
		case api.Checks:
			e.rows = store.ExportChecks
		case api.Pages:
			e.rows = store.ExportPages
		}
	}
	if prm.Limit != nil {
		e.limit = *prm.Limit
	}
	return e, nil
}

type csvExport struct {
	s      *Server
	ctx    context.Context //nolint:containedctx // the request's, used when the response is written
	p      auth.Principal
	filter store.ScanFilter
	limit  int
	rows   store.ExportRows
}

// VisitExportScansResponse runs the export into w. Status and headers go
// out with PostgreSQL's first bytes (the header row), so a failure before
// them is an ordinary error response. A failure after them cannot change
// the status: the connection is then closed without the final chunk, which
// every HTTP client reports as an incomplete body, and the X-Export-Rows
// trailer that a complete export ends with is missing (see openapi.yaml).
func (e *csvExport) VisitExportScansResponse(w http.ResponseWriter) error {
	// The request's deadline (GEOSCAN_REQUEST_TIMEOUT) is for ordinary
	// requests; an export of a million rows may take longer, and ends when
	// the client stops reading (exportIdle) or goes away.
	ctx, cancel := context.WithCancel(context.WithoutCancel(e.ctx))
	defer cancel()
	stop := context.AfterFunc(e.ctx, func() {
		if !errors.Is(e.ctx.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	defer stop()

	out := &exportWriter{w: w, rc: http.NewResponseController(w), name: fmt.Sprintf(`attachment; filename="geoscan-scans-%s.csv"`, e.s.now().Format("2006-01-02"))}
	// PostgreSQL sends COPY one row per message: batch them into large
	// writes rather than one write (and one deadline) per row.
	buf := bufio.NewWriterSize(out, 64<<10)
	rows, err := e.s.d.Store.ExportCSV(ctx, e.p.OrgID, e.filter, e.limit, e.rows, buf)
	if err == nil {
		err = buf.Flush()
	}
	if err == nil {
		w.Header().Set(exportRowsTrailer, strconv.FormatInt(rows, 10))
		return nil
	}
	if !out.started {
		return err
	}
	e.s.d.Logger.ErrorContext(e.ctx, "export failed midway; closing the connection", slog.String("error", err.Error()), slog.Int64("bytes_sent", out.written))
	panic(http.ErrAbortHandler)
}

// exportWriter sends the status and headers with the first bytes, and
// gives each write exportIdle to complete.
type exportWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	name    string
	started bool
	written int64
}

func (x *exportWriter) Write(p []byte) (int, error) {
	if !x.started {
		x.started = true
		h := x.w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", x.name)
		h.Set("Trailer", exportRowsTrailer)
		x.w.WriteHeader(http.StatusOK)
	}
	_ = x.rc.SetWriteDeadline(time.Now().Add(exportIdle))
	n, err := x.w.Write(p)
	x.written += int64(n)
	return n, err
}
