package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/jobs/mail"
	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// CreateSchedule creates a schedule for a homepage, or returns the existing
// one for the same URL with 200.
func (s *Server) CreateSchedule(ctx context.Context, req api.CreateScheduleRequestObject) (api.CreateScheduleResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	body := req.Body
	target, err := s.checkTarget(ctx, body.URL, apierror.CodeInvalidURL, "url")
	if err != nil {
		return nil, err
	}
	if !netguard.IsHomepage(target.URL) {
		return nil, apierror.New(apierror.CodeNotHomepage, "url", "Only a homepage can be scheduled: use %s://%s/ without a path or query.", target.URL.Scheme, target.URL.Host)
	}
	n := store.NewSchedule{
		OrgID: p.OrgID, URL: target.String(), Domain: target.Host,
		BrandName: netguard.RegistrableName(target.Host), Frequency: store.Quarterly, NotifyEmail: true,
		OwnerMemberID: p.MemberID,
	}
	if body.NotifyTo != nil {
		addr, err := notifyAddress(*body.NotifyTo)
		if err != nil {
			return nil, err
		}
		n.NotifyTo = &addr
	}
	if body.Frequency != nil {
		n.Frequency = store.Frequency(*body.Frequency)
	}
	if body.Language != nil {
		n.Language = new(string(*body.Language))
	}
	if body.NotifyEmail != nil {
		n.NotifyEmail = *body.NotifyEmail
	}
	if body.Competitors != nil {
		if n.Competitors, err = s.planCompetitors(ctx, p.OrgID, *body.Competitors, target); err != nil {
			return nil, err
		}
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

	status, out, err := createOnce(ctx, s.d.Store, p.OrgID, "createSchedule", req.Params.IdempotencyKey, body,
		func(ctx context.Context, tx *store.Store) (int, api.Schedule, error) {
			sc, created, err := schedule.Create(ctx, tx, n, s.now())
			if errors.Is(err, store.ErrScheduleLimit) {
				return 0, api.Schedule{}, scheduleLimitError()
			}
			if err != nil {
				return 0, api.Schedule{}, err
			}
			if created {
				return http.StatusCreated, toAPISchedule(sc), nil
			}
			return http.StatusOK, toAPISchedule(sc), nil
		})
	if err != nil {
		return nil, err
	}
	if status == http.StatusCreated {
		return api.CreateSchedule201JSONResponse{Body: out}, nil
	}
	return api.CreateSchedule200JSONResponse{Body: out}, nil
}

func notifyAddress(raw string) (string, error) {
	addr, err := mail.ParseAddress(raw)
	if err != nil {
		return "", apierror.New(apierror.CodeInvalidParameter, "notify_to", "notify_to %s.", err)
	}
	return addr, nil
}

func scheduleLimitError() error {
	return apierror.New(apierror.CodeScheduleLimitReached, "", "The organization has as many active schedules as its plan allows; deactivate one or upgrade the plan.")
}

func scheduleNotFound(id uuid.UUID) error {
	return apierror.New(apierror.CodeScheduleNotFound, "schedule_id", "No schedule with id %s.", id)
}

// ListSchedules pages through the organization's schedules.
func (s *Server) ListSchedules(ctx context.Context, req api.ListSchedulesRequestObject) (api.ListSchedulesResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := keysetPage(req.Params.Cursor, req.Params.Limit, func(after *store.Cursor, limit int) ([]store.Schedule, error) {
		return s.d.Store.ListSchedules(ctx, p.OrgID, req.Params.Active, after, limit)
	}, toAPISchedule)
	if err != nil {
		return nil, err
	}
	return scheduleListResponse(api.ScheduleList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}), nil
}

// GetSchedule returns one schedule.
func (s *Server) GetSchedule(ctx context.Context, req api.GetScheduleRequestObject) (api.GetScheduleResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	sc, err := s.d.Store.GetSchedule(ctx, p.OrgID, req.ScheduleID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, scheduleNotFound(req.ScheduleID)
	}
	if err != nil {
		return nil, err
	}
	return api.GetSchedule200JSONResponse{Body: toAPISchedule(sc)}, nil
}

// UpdateSchedule changes frequency, notification or active state.
func (s *Server) UpdateSchedule(ctx context.Context, req api.UpdateScheduleRequestObject) (api.UpdateScheduleResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	c := schedule.Change{NotifyEmail: req.Body.NotifyEmail, Active: req.Body.Active}
	if req.Body.NotifyTo.IsSpecified() {
		c.SetNotifyTo = true
		if !req.Body.NotifyTo.IsNull() {
			addr, err := notifyAddress(req.Body.NotifyTo.MustGet())
			if err != nil {
				return nil, err
			}
			c.NotifyTo = &addr
		}
	}
	if req.Body.Frequency != nil {
		f := store.Frequency(*req.Body.Frequency)
		c.Frequency = &f
	}
	if req.Body.Language != nil {
		c.Language = new(string(*req.Body.Language))
	}
	if req.Body.Competitors != nil {
		cur, err := s.d.Store.GetSchedule(ctx, p.OrgID, req.ScheduleID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, scheduleNotFound(req.ScheduleID)
		}
		if err != nil {
			return nil, err
		}
		site, err := s.checkTarget(ctx, cur.URL, apierror.CodeInvalidURL, "url")
		if err != nil {
			return nil, err
		}
		list, err := s.planCompetitors(ctx, p.OrgID, *req.Body.Competitors, site)
		if err != nil {
			return nil, err
		}
		c.Competitors = &list
	}
	sc, err := schedule.Update(ctx, s.d.Store, p.OrgID, req.ScheduleID, c, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, scheduleNotFound(req.ScheduleID)
	case errors.Is(err, store.ErrScheduleLimit):
		return nil, scheduleLimitError()
	case err != nil:
		return nil, err
	}
	return api.UpdateSchedule200JSONResponse{Body: toAPISchedule(sc)}, nil
}

// DeleteSchedule deactivates a schedule.
func (s *Server) DeleteSchedule(ctx context.Context, req api.DeleteScheduleRequestObject) (api.DeleteScheduleResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	sc, err := schedule.Deactivate(ctx, s.d.Store, p.OrgID, req.ScheduleID, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, scheduleNotFound(req.ScheduleID)
	}
	if err != nil {
		return nil, err
	}
	return api.DeleteSchedule200JSONResponse{Body: toAPISchedule(sc)}, nil
}

// ListScheduleRuns pages through the periods a schedule served.
func (s *Server) ListScheduleRuns(ctx context.Context, req api.ListScheduleRunsRequestObject) (api.ListScheduleRunsResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := s.d.Store.GetSchedule(ctx, p.OrgID, req.ScheduleID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, scheduleNotFound(req.ScheduleID)
		}
		return nil, err
	}
	pg, err := keysetPage(req.Params.Cursor, req.Params.Limit, func(after *store.Cursor, limit int) ([]store.ScheduleRun, error) {
		return s.d.Store.ListScheduleRuns(ctx, req.ScheduleID, after, limit)
	}, toAPIScheduleRun)
	if err != nil {
		return nil, err
	}
	return scheduleRunListResponse(api.ScheduleRunList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}), nil
}

func toAPIScheduleRun(r store.ScheduleRun) api.ScheduleRun {
	out := api.ScheduleRun{
		ID: r.ID, DueAt: r.DueAt.UTC(), Outcome: api.ScheduleRunOutcome(r.Outcome), Attempts: r.Attempts,
		ScanID: r.ScanID, OverallScore: r.OverallScore, OverallGrade: r.OverallGrade,
		ErrorCode: r.ErrorCode, SkipReason: r.SkipReason, EmailStatus: r.EmailStatus, EmailDetail: r.EmailDetail,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
	if r.ScanStatus != nil {
		status := string(*r.ScanStatus)
		out.ScanStatus = &status
	}
	return out
}

func toAPISchedule(r store.Schedule) api.Schedule {
	out := api.Schedule{
		ID: r.ID, URL: r.URL, Domain: r.Domain, BrandName: r.BrandName, BrandAliases: aliasList(r.BrandAliases),
		Frequency: api.ScheduleFrequency(r.Frequency), NotifyEmail: r.NotifyEmail, NotifyTo: r.NotifyTo, Active: r.Active,
		LastRunAt: utcPtr(r.LastRunAt), LastScanID: r.LastScanID,
		LastSkipReason: r.LastSkipReason, LastSkippedAt: utcPtr(r.LastSkippedAt),
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Competitors: r.Competitors,
	}
	if out.Competitors == nil {
		out.Competitors = []string{}
	}
	if r.Language != nil {
		out.Language = new(api.ScheduleLanguage(*r.Language))
	}
	if r.Active {
		next := r.NextRunAt.UTC()
		out.NextRunAt = &next
	}
	return out
}

// planCompetitors checks the number of competitors against the plan
// before looking any of them up, then each of them (checkCompetitors).
// Creating the scan checks the number again, in its transaction.
func (s *Server) planCompetitors(ctx context.Context, orgID uuid.UUID, raw []string, site *netguard.Target) ([]string, error) {
	org, err := s.d.Store.GetOrganization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if limit := store.Limits(org).MaxCompetitors; len(raw) > limit {
		return nil, competitorsAbovePlan(limit)
	}
	return s.checkCompetitors(ctx, raw, site)
}
