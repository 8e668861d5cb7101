package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

const maxURLLen = 2048

// CreateScan validates the URLs, then in one transaction checks the
// subscription, takes quota, stores the scan and queues its run.
func (s *Server) CreateScan(ctx context.Context, req api.CreateScanRequestObject) (api.CreateScanResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	body := req.Body
	target, err := s.checkTarget(ctx, body.URL, apierror.CodeInvalidURL, "url")
	if err != nil {
		return nil, err
	}
	n := store.NewScan{
		OrgID: p.OrgID, APIKeyID: &p.KeyID, Source: store.SourceAPI,
		URL: target.String(), Domain: target.Host, BrandName: netguard.RegistrableName(target.Host),
		Project: body.Project, MaxPages: 1,
	}
	if body.Language != nil {
		n.Language = new(string(*body.Language))
	}
	if body.MaxPages != nil {
		if *body.MaxPages < 1 {
			return nil, maxPagesBelowOne()
		}
		n.MaxPages = *body.MaxPages
	}
	if body.BrandName != nil {
		n.BrandName = strings.TrimSpace(*body.BrandName)
		if n.BrandName == "" {
			return nil, apierror.New(apierror.CodeInvalidParameter, "brand_name", "brand_name must not be blank.")
		}
	}
	if n.BrandAliases, err = brandAliases(body.BrandAliases, n.BrandName); err != nil {
		return nil, err
	}
	if body.CallbackURL != nil {
		cb, err := s.checkTarget(ctx, *body.CallbackURL, apierror.CodeInvalidCallbackURL, "callback_url")
		if err != nil {
			return nil, err
		}
		secret, err := webhook.NewSecret()
		if err != nil {
			return nil, fmt.Errorf("webhook secret: %w", err)
		}
		cbURL := cb.String()
		n.CallbackURL, n.WebhookSecret = &cbURL, &secret
	}
	if body.Competitors != nil {
		if n.Competitors, err = s.planCompetitors(ctx, p.OrgID, *body.Competitors, target); err != nil {
			return nil, err
		}
	}
	if body.TrackedURL != nil {
		tracked, err := normalizeTrackedURL(*body.TrackedURL)
		if err != nil {
			return nil, err
		}
		n.TrackedURL = &tracked
	}

	_, out, err := createOnce(ctx, s.d.Store, p.OrgID, "createScan", req.Params.IdempotencyKey, body,
		func(ctx context.Context, tx *store.Store) (int, api.Scan, error) {
			scan, err := tx.CreateScan(ctx, n, s.now())
			if err != nil {
				return 0, api.Scan{}, scanCreateError(err)
			}
			if err := s.d.Scans.Enqueue(ctx, tx, scan.ID); err != nil {
				return 0, api.Scan{}, err
			}
			out := toAPIScan(scan.ScanView)
			out.WebhookSecret = scan.WebhookSecret
			return http.StatusCreated, out, nil
		})
	if err != nil {
		return nil, err
	}
	return api.CreateScan201JSONResponse{Body: out}, nil
}

func scanCreateError(err error) error {
	switch {
	case errors.Is(err, store.ErrNoSubscription):
		return apierror.New(apierror.CodeSubscriptionRequired, "", "Creating a scan requires an active subscription.")
	case errors.Is(err, store.ErrQuotaExhausted):
		return apierror.New(apierror.CodeSubscriptionRequired, "", "Today's scan quota is used up; it resets at 00:00 UTC.")
	}
	var mp *store.MaxPagesError
	if errors.As(err, &mp) {
		return maxPagesAbovePlan(mp.Limit)
	}
	var ce *store.CompetitorsError
	if errors.As(err, &ce) {
		return competitorsAbovePlan(ce.Limit)
	}
	return err
}

func competitorsAbovePlan(limit int) error {
	return apierror.New(apierror.CodeInvalidParameter, "competitors",
		"competitors names more sites than your plan's maximum of %d per scan.", limit)
}

// checkCompetitors checks each competitor's URL under the scan URL's
// rules and normalizes it; the site itself, or one named twice, is
// refused, as a benchmark against oneself measures nothing.
func (s *Server) checkCompetitors(ctx context.Context, raw []string, site *netguard.Target) ([]string, error) {
	out := make([]string, 0, len(raw))
	seen := map[string]bool{site.Host: true}
	for i, r := range raw {
		param := fmt.Sprintf("competitors[%d]", i)
		t, err := s.checkTarget(ctx, r, apierror.CodeInvalidURL, param)
		if err != nil {
			return nil, err
		}
		if seen[t.Host] {
			if t.Host == site.Host {
				return nil, apierror.New(apierror.CodeInvalidURL, param, "%s is the scanned site itself; name other sites as competitors.", t.Host)
			}
			return nil, apierror.New(apierror.CodeInvalidURL, param, "%s is named twice.", t.Host)
		}
		seen[t.Host] = true
		out = append(out, t.String())
	}
	return out, nil
}

func maxPagesBelowOne() error {
	return apierror.New(apierror.CodeInvalidParameter, "max_pages", "max_pages must be at least 1 (1 audits the homepage alone).")
}

func maxPagesAbovePlan(limit int) error {
	return apierror.New(apierror.CodeInvalidParameter, "max_pages",
		"max_pages is above your plan's maximum of %d pages per scan.", limit)
}

// normalizeTrackedURL accepts an absolute https URL without credentials. It
// is metadata and never fetched, so no address rules apply.
func normalizeTrackedURL(raw string) (string, error) {
	bad := func(why string) error {
		return apierror.New(apierror.CodeInvalidParameter, "tracked_url", "tracked_url %s.", why)
	}
	if len(raw) > maxURLLen {
		return "", bad(fmt.Sprintf("must be at most %d characters", maxURLLen))
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return "", bad("must be an absolute URL")
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return "", bad("must use https")
	}
	if u.User != nil {
		return "", bad("must not contain credentials")
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = "https", strings.ToLower(u.Host), "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String(), nil
}

// GetScanPrice validates a URL as creating a scan would and says what the
// scan would cost and whether it can be created now.
func (s *Server) GetScanPrice(ctx context.Context, req api.GetScanPriceRequestObject) (api.GetScanPriceResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	target, err := s.checkTarget(ctx, req.Params.URL, apierror.CodeInvalidURL, "url")
	if err != nil {
		return nil, err
	}
	u, err := s.usage(ctx, p.OrgID)
	if err != nil {
		return nil, err
	}
	// The page budget does not change the price (one scan of the quota);
	// one above the plan's is refused as creating the scan would refuse it.
	maxPages := 1
	if req.Params.MaxPages != nil {
		if maxPages = *req.Params.MaxPages; maxPages < 1 {
			return nil, maxPagesBelowOne()
		}
	}
	org, err := s.d.Store.GetOrganization(ctx, p.OrgID)
	if err != nil {
		return nil, err
	}
	limit := store.Limits(org).MaxPages
	if maxPages > limit {
		return nil, maxPagesAbovePlan(limit)
	}
	out := api.ScanPrice{
		URL: target.String(), Domain: target.Host, BrandName: netguard.RegistrableName(target.Host),
		Cost: 1, Unit: api.ScanPriceUnitScan, Allowed: true, Usage: u,
		MaxPages: maxPages, MaxPagesLimit: limit,
	}
	switch {
	case u.SubscriptionStatus != api.Active:
		r := api.SubscriptionRequired
		out.Allowed, out.Reason = false, &r
	case u.Remaining <= 0:
		r := api.DailyQuotaExhausted
		out.Allowed, out.Reason = false, &r
	}
	return api.GetScanPrice200JSONResponse{Body: out}, nil
}

// GetScan returns a scan of the caller's organization.
func (s *Server) GetScan(ctx context.Context, req api.GetScanRequestObject) (api.GetScanResponseObject, error) {
	scan, err := ownScan(ctx, req.ScanID, s.d.Store.GetScanView)
	if err != nil {
		return nil, err
	}
	return scanResponse(toAPIScan(scan)), nil
}

func (s *Server) loadScan(ctx context.Context, id uuid.UUID) (store.Scan, error) {
	return ownScan(ctx, id, s.d.Store.GetScan)
}

// ownScan reads a scan of the caller's organization with get (the whole
// scan, or what the API shows of it); another organization's scan is not
// found, as a missing one is.
func ownScan[T any](ctx context.Context, id uuid.UUID, get func(ctx context.Context, orgID, id uuid.UUID) (T, error)) (T, error) {
	var none T
	p, err := principal(ctx)
	if err != nil {
		return none, err
	}
	scan, err := get(ctx, p.OrgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return none, scanNotFound(id)
	}
	return scan, err
}

func scanNotFound(id uuid.UUID) error {
	return apierror.New(apierror.CodeScanNotFound, "scan_id", "No scan with id %s.", id)
}

// ListScans pages through the organization's scans.
func (s *Server) ListScans(ctx context.Context, req api.ListScansRequestObject) (api.ListScansResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	prm := req.Params
	filter, err := s.scanFilter(prm.Status, prm.Project, prm.URL, prm.Domain, prm.CreatedAfter, prm.CreatedBefore)
	if err != nil {
		return nil, err
	}
	pg, err := keysetPage(prm.Cursor, prm.Limit, func(after *store.Cursor, limit int) ([]store.ScanView, error) {
		return s.d.Store.ListScans(ctx, p.OrgID, filter, after, limit)
	}, toAPIScan)
	if err != nil {
		return nil, err
	}
	return scanListResponse(api.ScanList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}), nil
}

func (s *Server) scanFilter(status *api.ScanStatus, project, rawURL, domain *string, after, before *time.Time) (store.ScanFilter, error) {
	f := store.ScanFilter{Project: project, CreatedAfter: after, CreatedBefore: before}
	if status != nil {
		st := store.ScanStatus(*status)
		f.Status = &st
	}
	if rawURL != nil {
		norm, err := netguard.Normalize(*rawURL)
		if err != nil {
			return f, apierror.New(apierror.CodeInvalidParameter, "url", "url is not a valid https URL.")
		}
		f.URL = &norm
	}
	if domain != nil {
		d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(*domain)), ".")
		if ascii, err := netguard.ASCIIHost(d); err == nil {
			d = ascii
		}
		f.Domain = &d
	}
	return f, nil
}

// UpdateScan changes project and tracked_url.
func (s *Server) UpdateScan(ctx context.Context, req api.UpdateScanRequestObject) (api.UpdateScanResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	var m store.ScanMetadata
	if req.Body.Project.IsSpecified() {
		m.SetProject = true
		if !req.Body.Project.IsNull() {
			v := req.Body.Project.MustGet()
			if strings.TrimSpace(v) == "" {
				return nil, apierror.New(apierror.CodeInvalidParameter, "project", "project must not be blank; send null to remove it.")
			}
			m.Project = &v
		}
	}
	if req.Body.TrackedURL.IsSpecified() {
		m.SetTrackedURL = true
		if !req.Body.TrackedURL.IsNull() {
			v, err := normalizeTrackedURL(req.Body.TrackedURL.MustGet())
			if err != nil {
				return nil, err
			}
			m.TrackedURL = &v
		}
	}
	scan, err := s.d.Store.UpdateScanMetadata(ctx, p.OrgID, req.ScanID, m)
	if errors.Is(err, store.ErrNotFound) {
		return nil, scanNotFound(req.ScanID)
	}
	if err != nil {
		return nil, err
	}
	return api.UpdateScan200JSONResponse{Body: toAPIScan(scan.ScanView)}, nil
}

// DeleteScan removes a scan and everything that belongs to it.
func (s *Server) DeleteScan(ctx context.Context, req api.DeleteScanRequestObject) (api.DeleteScanResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := s.d.Store.DeleteScan(ctx, p.OrgID, req.ScanID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, scanNotFound(req.ScanID)
		}
		return nil, err
	}
	return api.DeleteScan204Response{}, nil
}

func toAPIScan(r store.ScanView) api.Scan {
	out := api.Scan{
		ID: r.ID, URL: r.URL, Domain: r.Domain, BrandName: r.BrandName, BrandAliases: aliasList(r.BrandAliases),
		Status: api.ScanStatus(r.Status), OverallScore: r.OverallScore,
		SearchScore: intPtr(r.SearchScore), VisibilityScore: intPtr(r.VisibilityScore), TrustScore: intPtr(r.TrustScore),
		ScoringVersion: r.ScoringVersion,
		OverallGrade:   r.OverallGrade, SearchGrade: r.SearchGrade, VisibilityGrade: r.VisibilityGrade, TrustGrade: r.TrustGrade, ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
		CallbackURL: r.CallbackURL, Project: r.Project, TrackedURL: r.TrackedURL,
		Source: api.ScanSource(r.Source), ScheduleID: r.ScheduleID,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		StartedAt: utcPtr(r.StartedAt), CompletedAt: utcPtr(r.CompletedAt),
		MaxPages: max(r.MaxPages, 1), Competitors: r.Competitors,
	}
	if out.Competitors == nil {
		out.Competitors = []string{}
	}
	if r.PagesPlanned != nil {
		out.Progress = &api.ScanProgress{PagesDone: r.PagesDone, PagesPlanned: *r.PagesPlanned}
	}
	if r.Language != nil {
		out.Language = new(api.ScanLanguage(*r.Language))
	}
	return out
}

func intPtr(v *int32) *int {
	if v == nil {
		return nil
	}
	n := int(*v)
	return &n
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
