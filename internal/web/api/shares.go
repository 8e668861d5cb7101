package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/branding"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// Share links: a completed scan's report as an HTML page that opens without
// an API key. The link's token is made by the store, shown once in the
// creating response's url, and kept only as its hash.

const (
	// DefaultShareDays is how long a link works when the request says
	// nothing.
	DefaultShareDays = 30
	// DefaultShareMaxDays is the longest a link may work unless the
	// operator says otherwise (GEOSCAN_SHARE_MAX_DAYS).
	DefaultShareMaxDays = 365
	// shareHistory is how many completed scans a shared report's trend
	// shows at most.
	shareHistory = 24
)

// shareLanguages are the languages a shared report's page is written in.
var shareLanguages = []string{"en", "de", "fr", "es"}

func (s *Server) shareMaxDays() int {
	if s.d.ShareMaxDays > 0 {
		return s.d.ShareMaxDays
	}
	return DefaultShareMaxDays
}

// shareURLHint is a link with its token left out.
func shareURLHint(publicURL string) string {
	return store.ShareURL(publicURL, store.ShareTokenPrefix+"…")
}

// CreateScanShare creates a share link of a completed scan.
func (s *Server) CreateScanShare(ctx context.Context, req api.CreateScanShareRequestObject) (api.CreateScanShareResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	var body api.ShareCreateRequest
	if req.Body != nil {
		body = *req.Body
	}
	now := s.now()
	n := store.NewShareLink{OrgID: p.OrgID, ScanID: req.ScanID, Audience: string(scoring.Marketing), Language: "en"}
	if body.Audience != nil {
		n.Audience = string(*body.Audience)
	}
	if body.Language != nil {
		// The contract's enum refuses others first; this says which are
		// supported should the two ever differ.
		if !slices.Contains(shareLanguages, string(*body.Language)) {
			return nil, apierror.New(apierror.CodeInvalidParameter, "language", "language must be one of %s.", strings.Join(shareLanguages, ", "))
		}
		n.Language = string(*body.Language)
	}
	if body.Label != nil {
		label := strings.TrimSpace(*body.Label)
		if label != "" {
			n.Label = &label
		}
	}
	if n.ExpiresAt, err = s.shareExpiry(body, now); err != nil {
		return nil, err
	}
	if _, err := s.completedScan(ctx, req.ScanID, "scan_id"); err != nil {
		return nil, err
	}
	link, token, err := s.d.Store.IssueShareLink(ctx, n)
	if errors.Is(err, store.ErrNotFound) {
		// The scan was deleted between the check and the insert.
		return nil, scanNotFound(req.ScanID)
	}
	if err != nil {
		return nil, err
	}
	v := s.toAPIShare(link)
	return api.CreateScanShare201JSONResponse{Body: api.ShareCreated{
		ID: v.ID, URL: store.ShareURL(s.d.PublicURL, token), ScanID: v.ScanID,
		Audience: api.ShareCreatedAudience(v.Audience), Language: api.ShareCreatedLanguage(v.Language), Label: v.Label,
		URLHint: v.URLHint, ExpiresAt: v.ExpiresAt, RevokedAt: v.RevokedAt, CreatedAt: v.CreatedAt,
	}}, nil
}

// shareExpiry is when a new link stops working: expires_at, or
// expires_in_days from now, or the default; never beyond the operator's
// maximum.
func (s *Server) shareExpiry(body api.ShareCreateRequest, now time.Time) (time.Time, error) {
	maxDays := s.shareMaxDays()
	latest := now.AddDate(0, 0, maxDays)
	switch {
	case body.ExpiresAt != nil && body.ExpiresInDays != nil:
		return time.Time{}, apierror.New(apierror.CodeInvalidParameter, "expires_in_days", "Give expires_at or expires_in_days, not both.")
	case body.ExpiresAt != nil:
		at := body.ExpiresAt.UTC()
		if !at.After(now) {
			return time.Time{}, apierror.New(apierror.CodeInvalidParameter, "expires_at", "expires_at must be in the future.")
		}
		if at.After(latest) {
			return time.Time{}, apierror.New(apierror.CodeInvalidParameter, "expires_at", "expires_at may be at most %d days from now.", maxDays)
		}
		return at, nil
	case body.ExpiresInDays != nil:
		days := *body.ExpiresInDays
		if days < 1 || days > maxDays {
			return time.Time{}, apierror.New(apierror.CodeInvalidParameter, "expires_in_days", "expires_in_days must be between 1 and %d.", maxDays)
		}
		return now.AddDate(0, 0, days), nil
	}
	return now.AddDate(0, 0, min(DefaultShareDays, maxDays)), nil
}

// ListScanShares pages through a scan's share links; their tokens were
// shown once and are not listed.
func (s *Server) ListScanShares(ctx context.Context, req api.ListScanSharesRequestObject) (api.ListScanSharesResponseObject, error) {
	scan, err := s.loadScan(ctx, req.ScanID)
	if err != nil {
		return nil, err
	}
	pg, err := keysetPage(req.Params.Cursor, req.Params.Limit, func(after *store.Cursor, limit int) ([]store.ShareLink, error) {
		return s.d.Store.ListShareLinks(ctx, scan.OrgID, scan.ID, after, limit)
	}, s.toAPIShare)
	if err != nil {
		return nil, err
	}
	return api.ListScanShares200JSONResponse{Body: api.ShareList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}}, nil
}

// RevokeScanShare revokes a share link at once.
func (s *Server) RevokeScanShare(ctx context.Context, req api.RevokeScanShareRequestObject) (api.RevokeScanShareResponseObject, error) {
	scan, err := s.loadScan(ctx, req.ScanID)
	if err != nil {
		return nil, err
	}
	_, err = s.d.Store.RevokeShareLink(ctx, scan.OrgID, scan.ID, req.ShareID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierror.New(apierror.CodeShareNotFound, "share_id", "Scan %s has no share link with id %s.", scan.ID, req.ShareID)
	}
	if err != nil {
		return nil, err
	}
	return api.RevokeScanShare204Response{}, nil
}

func (s *Server) toAPIShare(l store.ShareLink) api.Share {
	return api.Share{
		ID: l.ID, ScanID: l.ScanID, Audience: api.ShareAudience(l.Audience), Language: api.ShareLanguage(l.Language),
		Label: l.Label, URLHint: shareURLHint(s.d.PublicURL),
		ExpiresAt: l.ExpiresAt.UTC(), RevokedAt: utcOrNil(l.RevokedAt), CreatedAt: l.CreatedAt.UTC(),
	}
}

func utcOrNil(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// SharedReport serves GET /r/{token}, the public page of a share link:
// the report for a live link, 404 for a token no link has, 410 for a
// revoked or expired link or one whose scan is gone. Every answer carries
// report.HTMLHeaders; none but the first shows anything of a report.
func (s *Server) SharedReport(w http.ResponseWriter, r *http.Request) {
	report.HTMLHeaders(w.Header())
	token := strings.TrimPrefix(r.URL.Path, store.SharePath)
	status, in, err := s.sharedReport(r.Context(), token)
	if err != nil {
		// The token never reaches the log, only the link's outcome.
		s.d.Logger.ErrorContext(r.Context(), "shared report", slog.String("error", err.Error()))
		status = http.StatusInternalServerError
	}
	if status != http.StatusOK {
		w.WriteHeader(status)
		if r.Method == http.MethodHead {
			return
		}
		if err := report.WriteHTMLGoneIn(w, status, in.Brand, in.Language); err != nil {
			s.d.Logger.ErrorContext(r.Context(), "shared report page", slog.String("error", err.Error()))
		}
		return
	}
	// Written whole before the status, so a failing template is a 500,
	// not half a page.
	var page strings.Builder
	if err := report.WriteHTML(&page, in); err != nil {
		s.d.Logger.ErrorContext(r.Context(), "shared report page", slog.String("error", err.Error()))
		w.WriteHeader(http.StatusInternalServerError)
		_ = report.WriteHTMLGoneIn(w, http.StatusInternalServerError, in.Brand, in.Language)
		return
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(page.String()))
	}
}

// sharedReport reads what the page of a token shows.
func (s *Server) sharedReport(ctx context.Context, token string) (int, report.HTMLInput, error) {
	var in report.HTMLInput
	if !store.WellFormedShareToken(token) {
		return http.StatusNotFound, in, nil
	}
	link, err := s.d.Store.LookupShareLink(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return http.StatusNotFound, in, nil
	}
	if err != nil {
		return 0, in, fmt.Errorf("look up share link: %w", err)
	}
	if in.Brand, err = branding.Load(ctx, s.d.Store, link.OrgID); err != nil {
		return 0, in, err
	}
	// A revoked or expired link's page is in the link's language too.
	in.Language = link.Language
	if !link.Live(s.now()) {
		return http.StatusGone, in, nil
	}
	scan, err := s.d.Store.GetScan(ctx, link.OrgID, link.ScanID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && scan.Status != store.ScanCompleted) {
		// Deleted links go with their scan; this covers a read racing it.
		return http.StatusGone, in, nil
	}
	if err != nil {
		return 0, in, fmt.Errorf("read shared scan: %w", err)
	}
	audience := scoring.Audience(link.Audience)
	if in.Report, err = s.report(ctx, scan, audience); err != nil {
		return 0, in, err
	}
	switch t, err := s.d.Store.GetTriage(ctx, scan.ID); {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return 0, in, fmt.Errorf("read triage of shared scan: %w", err)
	default:
		var stored triage.Stored
		if err := json.Unmarshal(t.Body, &stored); err != nil {
			return 0, in, fmt.Errorf("decode triage %s: %w", scan.ID, err)
		}
		d := stored.For(audience)
		in.Triage = &d
	}
	until := s.now()
	if scan.CompletedAt != nil {
		until = *scan.CompletedAt
	}
	points, err := s.d.Store.ScoreHistory(ctx, link.OrgID, scan.URL, until, shareHistory)
	if err != nil {
		return 0, in, err
	}
	for _, p := range points {
		in.History = append(in.History, report.HistoryPoint{
			At: p.CompletedAt, Overall: int(math.Round(p.Overall)), Search: p.Search, Visibility: p.Visibility, Trust: p.Trust,
		})
	}
	in.Expires = link.ExpiresAt
	return http.StatusOK, in, nil
}
