package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/report"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/triage"
)

// audienceOf reads the audience parameter; each operation has its own
// generated type for it, all strings underneath.
func audienceOf[T ~string](a *T) api.Audience {
	if a == nil || *a == "" {
		return api.AudienceMarketing
	}
	return api.Audience(*a)
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
		return scan, apierror.New(apierror.CodeScanNotComplete, param,
			"Scan %s is %s; its results are available once it has completed.", id, scan.Status)
	}
	return scan, nil
}

func (s *Server) report(ctx context.Context, scan store.Scan, audience api.Audience) (api.Report, error) {
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
	notAvailable := apierror.New(apierror.CodeTriageNotAvailable, "scan_id",
		"The triage dossier of scan %s has not been computed (the scan is %s).", scan.ID, scan.Status)
	if scan.Status != store.ScanCompleted {
		return nil, notAvailable
	}
	row, err := s.d.Store.GetTriage(ctx, scan.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notAvailable
	}
	if err != nil {
		return nil, err
	}
	var stored triage.Stored
	if err := json.Unmarshal(row.Body, &stored); err != nil {
		return nil, fmt.Errorf("decode triage %s: %w", scan.ID, err)
	}
	return api.GetScanTriage200JSONResponse{Body: stored.For(string(audienceOf(req.Params.Audience)))}, nil
}

// GetScanPdf renders the report of a completed scan as a PDF.
func (s *Server) GetScanPdf(ctx context.Context, req api.GetScanPdfRequestObject) (api.GetScanPdfResponseObject, error) {
	scan, err := s.completedScan(ctx, req.ScanID, "scan_id")
	if err != nil {
		return nil, err
	}
	audience := audienceOf(req.Params.Audience)
	r, err := s.report(ctx, scan, audience)
	if err != nil {
		return nil, err
	}
	// The PDF has a Site Triage page; without a dossier (being recomputed)
	// it says so rather than failing the download.
	var dossier *api.TriageDossier
	switch row, err := s.d.Store.GetTriage(ctx, scan.ID); {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		var stored triage.Stored
		if err := json.Unmarshal(row.Body, &stored); err != nil {
			return nil, fmt.Errorf("decode triage %s: %w", scan.ID, err)
		}
		d := stored.For(string(audience))
		dossier = &d
	}
	var buf bytes.Buffer
	if err := report.RenderPDF(&buf, r, dossier); err != nil {
		return nil, fmt.Errorf("render pdf of %s: %w", scan.ID, err)
	}
	name := fmt.Sprintf(`attachment; filename="geoscan-%s-%s.pdf"`, scan.Domain, s.now().Format("2006-01-02"))
	return api.GetScanPdf200ApplicationPdfResponse{
		Body: &buf, ContentLength: int64(buf.Len()),
		Headers: api.GetScanPdf200ResponseHeaders{ContentDisposition: &name},
	}, nil
}
