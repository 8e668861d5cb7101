package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/geoscan/geoscan/gen/db"
)

// NewScan is what creating a scan stores.
type NewScan struct {
	OrgID         uuid.UUID
	APIKeyID      *uuid.UUID
	ScheduleID    *uuid.UUID
	Source        string
	URL           string
	Domain        string
	BrandName     string
	CallbackURL   *string
	WebhookSecret *string
	Project       *string
	TrackedURL    *string
}

// CreateScan checks the subscription, takes one scan of today's quota and
// inserts the scan, all in one transaction; then runs enqueue inside that
// transaction so the job exists exactly when the scan does.
func (s *Store) CreateScan(ctx context.Context, n NewScan, now time.Time, enqueue func(ctx context.Context, tx *Store, scan Scan) error) (Scan, error) {
	var created Scan
	err := s.InTx(ctx, func(tx *Store) error {
		org, err := tx.q.GetOrganization(ctx, tx.conn, n.OrgID)
		if err != nil {
			return fmt.Errorf("read organization: %w", notFound(err))
		}
		if org.SubscriptionStatus != "active" {
			return ErrNoSubscription
		}
		if _, err := tx.q.ConsumeDailyScan(ctx, tx.conn, db.ConsumeDailyScanParams{
			OrgID: n.OrgID, Day: UTCDay(now), DailyLimit: int32(Limits(org).DailyScans),
		}); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return ErrQuotaExhausted
			}
			return fmt.Errorf("consume quota: %w", err)
		}
		created, err = tx.q.CreateScan(ctx, tx.conn, db.CreateScanParams{
			OrgID: n.OrgID, APIKeyID: n.APIKeyID, ScheduleID: n.ScheduleID, Source: n.Source,
			URL: n.URL, Domain: n.Domain, BrandName: n.BrandName,
			CallbackURL: n.CallbackURL, WebhookSecret: n.WebhookSecret,
			Project: n.Project, TrackedURL: n.TrackedURL,
		})
		if err != nil {
			return fmt.Errorf("insert scan: %w", err)
		}
		if enqueue != nil {
			return enqueue(ctx, tx, created)
		}
		return nil
	})
	return created, err
}

// SetScanJob records the queue job that runs a scan.
func (s *Store) SetScanJob(ctx context.Context, scanID uuid.UUID, jobID int64) error {
	return s.q.SetScanJob(ctx, s.conn, db.SetScanJobParams{ID: scanID, JobID: &jobID})
}

// GetScan returns a scan of the organization.
func (s *Store) GetScan(ctx context.Context, orgID, id uuid.UUID) (Scan, error) {
	scan, err := s.q.GetScanForOrg(ctx, s.conn, db.GetScanForOrgParams{ID: id, OrgID: orgID})
	return scan, notFound(err)
}

// ScanFilter selects scans in lists and exports; nil fields do not filter.
type ScanFilter struct {
	Status        *string
	Project       *string
	URL           *string
	Domain        *string
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
}

// Cursor is a keyset position: the last row of the previous page.
type Cursor struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// ListScans returns up to limit scans after cursor, newest first.
func (s *Store) ListScans(ctx context.Context, orgID uuid.UUID, f ScanFilter, after *Cursor, limit int) ([]Scan, error) {
	p := db.ListScansForOrgParams{
		OrgID: orgID, Status: f.Status, Project: f.Project, URL: f.URL, Domain: f.Domain,
		CreatedAfter: f.CreatedAfter, CreatedBefore: f.CreatedBefore, RowLimit: int32(limit),
	}
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	return s.q.ListScansForOrg(ctx, s.conn, p)
}

// ScanMetadata is a PATCH of a scan: Set* says whether a field was sent.
type ScanMetadata struct {
	SetProject    bool
	Project       *string
	SetTrackedURL bool
	TrackedURL    *string
}

// UpdateScanMetadata applies m to a scan of the organization.
func (s *Store) UpdateScanMetadata(ctx context.Context, orgID, id uuid.UUID, m ScanMetadata) (Scan, error) {
	scan, err := s.q.UpdateScanMetadata(ctx, s.conn, db.UpdateScanMetadataParams{
		ID: id, OrgID: orgID, SetProject: m.SetProject, Project: m.Project,
		SetTrackedURL: m.SetTrackedURL, TrackedURL: m.TrackedURL,
	})
	return scan, notFound(err)
}

// DeleteScan deletes a scan and, by cascade, everything that belongs to it.
// It returns the job id of the scan's run, if one was recorded.
func (s *Store) DeleteScan(ctx context.Context, orgID, id uuid.UUID) (*int64, error) {
	row, err := s.q.DeleteScanForOrg(ctx, s.conn, db.DeleteScanForOrgParams{ID: id, OrgID: orgID})
	if err != nil {
		return nil, notFound(err)
	}
	return row.JobID, nil
}

// GetReport returns the report of a scan.
func (s *Store) GetReport(ctx context.Context, scanID uuid.UUID) (Report, error) {
	r, err := s.q.GetReport(ctx, s.conn, scanID)
	return r, notFound(err)
}

// GetTriage returns the triage dossier of a scan.
func (s *Store) GetTriage(ctx context.Context, scanID uuid.UUID) (Triage, error) {
	t, err := s.q.GetTriage(ctx, s.conn, scanID)
	return t, notFound(err)
}

// ListCheckResults returns a scan's check results in catalog order.
func (s *Store) ListCheckResults(ctx context.Context, scanID uuid.UUID) ([]CheckResult, error) {
	return s.q.ListCheckResults(ctx, s.conn, scanID)
}

// GetCheckResult returns one check result of a scan.
func (s *Store) GetCheckResult(ctx context.Context, scanID uuid.UUID, checkID string) (CheckResult, error) {
	r, err := s.q.GetCheckResult(ctx, s.conn, db.GetCheckResultParams{ScanID: scanID, CheckID: checkID})
	return r, notFound(err)
}
