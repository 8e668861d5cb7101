package api

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
)

var exportColumns = []string{
	"scan_id", "url", "domain", "brand_name", "project", "status",
	"overall_score", "overall_grade", "search_score", "search_grade",
	"visibility_score", "visibility_grade", "trust_score", "trust_grade",
	"scoring_version", "created_at", "completed_at", "error_message",
}

const exportBatch = 500

// ExportScans streams the matching scans as CSV, reading them in keyset
// batches so memory stays flat however many rows are exported.
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
	limit := 1000
	if prm.Limit != nil {
		limit = *prm.Limit
	}
	// Read the first batch before answering, so a database failure is still
	// a proper 500 rather than a truncated 200.
	first, err := s.d.Store.ListScans(ctx, p.OrgID, filter, nil, min(limit, exportBatch))
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(s.writeCSV(ctx, pw, p.OrgID, filter, first, limit))
	}()
	name := fmt.Sprintf(`attachment; filename="geoscan-scans-%s.csv"`, s.now().Format("2006-01-02"))
	return api.ExportScans200TextCsvResponse{Body: pr, Headers: api.ExportScans200ResponseHeaders{ContentDisposition: &name}}, nil
}

func (s *Server) writeCSV(ctx context.Context, w io.Writer, orgID uuid.UUID, f store.ScanFilter, batch []store.Scan, limit int) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(exportColumns); err != nil {
		return err
	}
	written := 0
	for {
		for _, r := range batch {
			if err := cw.Write(csvRow(r)); err != nil {
				return err
			}
			written++
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		if len(batch) < exportBatch || written >= limit {
			return nil
		}
		after := batch[len(batch)-1].Cursor()
		var err error
		batch, err = s.d.Store.ListScans(ctx, orgID, f, &after, min(limit-written, exportBatch))
		if err != nil {
			return err
		}
	}
}

func csvRow(r store.Scan) []string {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	num := func(p *int32) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(int(*p))
	}
	ts := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	overall := ""
	if r.OverallScore != nil {
		overall = strconv.FormatFloat(*r.OverallScore, 'f', 1, 64)
	}
	row := []string{
		r.ID.String(), r.URL, r.Domain, r.BrandName, str(r.Project), string(r.Status),
		overall, str(r.OverallGrade), num(r.SearchScore), str(r.SearchGrade),
		num(r.VisibilityScore), str(r.VisibilityGrade), num(r.TrustScore), str(r.TrustGrade),
		str(r.ScoringVersion), ts(&r.CreatedAt), ts(r.CompletedAt), str(r.ErrorMessage),
	}
	for i, cell := range row {
		row[i] = defuseFormula(cell)
	}
	return row
}

// defuseFormula keeps spreadsheets from running user-controlled text (a
// brand name, a project label) as a formula.
func defuseFormula(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
