package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/geoscan/geoscan/gen/db"
)

// ScanStatus is where a scan is in its life: pending, running, then
// completed or failed.
type ScanStatus string

// The scan states.
const (
	ScanPending   ScanStatus = "pending"
	ScanRunning   ScanStatus = "running"
	ScanCompleted ScanStatus = "completed"
	ScanFailed    ScanStatus = "failed"
)

// Finished reports a final state.
func (s ScanStatus) Finished() bool { return s == ScanCompleted || s == ScanFailed }

// Phrase is the status as a sentence says it after the scan: "Scan … " +
// Phrase() reads "Scan … is waiting to run", "… is running", "… completed"
// or "… failed", never "… is failed".
func (s ScanStatus) Phrase() string {
	switch s {
	case ScanPending:
		return "is waiting to run"
	case ScanRunning:
		return "is running"
	case ScanCompleted, ScanFailed:
		return string(s)
	}
	return "is in state " + string(s)
}

// ScanSource says what created a scan.
type ScanSource string

// The sources.
const (
	SourceAPI      ScanSource = "api"
	SourceSchedule ScanSource = "schedule"
)

// ScanView is what the API shows of a scan: every column but the
// organization, the key that created it, its webhook secret and its job's
// bookkeeping. Lists read only these columns.
type ScanView struct {
	ID              uuid.UUID
	ScheduleID      *uuid.UUID
	Source          ScanSource
	URL             string
	Domain          string
	BrandName       string
	BrandAliases    []string
	CallbackURL     *string
	Project         *string
	TrackedURL      *string
	Status          ScanStatus
	ErrorCode       *string
	ErrorMessage    *string
	OverallScore    *float64
	OverallGrade    *string
	SearchScore     *int32
	SearchGrade     *string
	VisibilityScore *int32
	VisibilityGrade *string
	TrustScore      *int32
	TrustGrade      *string
	ScoringVersion  *string
	CreatedAt       time.Time
	UpdatedAt       time.Time
	StartedAt       *time.Time
	CompletedAt     *time.Time
	// MaxPages is the audit's page budget (1: the homepage alone);
	// PagesDone and PagesPlanned its progress, PagesPlanned nil until a
	// whole-site audit's crawl has planned its pages.
	MaxPages     int
	PagesDone    int
	PagesPlanned *int
	// Language is the report's language: the requested one, then the one
	// resolved when the scan completed; nil when neither.
	Language *string
	// Competitors are the competitors' sites it benchmarks against.
	Competitors []string
}

// Cursor is the scan's place in a list.
func (s ScanView) Cursor() Cursor { return Cursor{CreatedAt: s.CreatedAt, ID: s.ID} }

// Scan is one audit of a URL, with the scores of its report once completed
// (kept here too, so lists, exports and comparisons read no report).
type Scan struct {
	ScanView
	OrgID         uuid.UUID
	APIKeyID      *uuid.UUID
	WebhookSecret *string
	JobID         *int64
	Attempts      int32
}

func scanOf(r db.Scan) Scan {
	return Scan{
		ScanView: ScanView{
			ID: r.ID, ScheduleID: r.ScheduleID, Source: ScanSource(r.Source),
			URL: r.URL, Domain: r.Domain, BrandName: r.BrandName, BrandAliases: r.BrandAliases,
			CallbackURL: r.CallbackURL, Project: r.Project, TrackedURL: r.TrackedURL,
			Status: ScanStatus(r.Status), ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
			OverallScore: r.OverallScore, OverallGrade: r.OverallGrade,
			SearchScore: r.SearchScore, SearchGrade: r.SearchGrade,
			VisibilityScore: r.VisibilityScore, VisibilityGrade: r.VisibilityGrade,
			TrustScore: r.TrustScore, TrustGrade: r.TrustGrade, ScoringVersion: r.ScoringVersion,
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, StartedAt: r.StartedAt, CompletedAt: r.CompletedAt,
			MaxPages: int(r.MaxPages), PagesDone: int(r.PagesDone), PagesPlanned: intOf(r.PagesPlanned),
			Language: r.Language, Competitors: nonNil(r.Competitors),
		},
		OrgID: r.OrgID, APIKeyID: r.APIKeyID, WebhookSecret: r.WebhookSecret, JobID: r.JobID, Attempts: r.Attempts,
	}
}

func scanViewOf(r db.ListScansForOrgRow) ScanView {
	return ScanView{
		ID: r.ID, ScheduleID: r.ScheduleID, Source: ScanSource(r.Source),
		URL: r.URL, Domain: r.Domain, BrandName: r.BrandName, BrandAliases: r.BrandAliases,
		CallbackURL: r.CallbackURL, Project: r.Project, TrackedURL: r.TrackedURL,
		Status: ScanStatus(r.Status), ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
		OverallScore: r.OverallScore, OverallGrade: r.OverallGrade,
		SearchScore: r.SearchScore, SearchGrade: r.SearchGrade,
		VisibilityScore: r.VisibilityScore, VisibilityGrade: r.VisibilityGrade,
		TrustScore: r.TrustScore, TrustGrade: r.TrustGrade, ScoringVersion: r.ScoringVersion,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, StartedAt: r.StartedAt, CompletedAt: r.CompletedAt,
		MaxPages: int(r.MaxPages), PagesDone: int(r.PagesDone), PagesPlanned: intOf(r.PagesPlanned),
		Language: r.Language, Competitors: nonNil(r.Competitors),
	}
}

// nonNil is a list as the API shows it: empty, never null.
func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func intOf(v *int32) *int {
	if v == nil {
		return nil
	}
	return new(int(*v))
}

// NewScan is what creating a scan stores.
type NewScan struct {
	OrgID         uuid.UUID
	APIKeyID      *uuid.UUID
	ScheduleID    *uuid.UUID
	Source        ScanSource
	URL           string
	Domain        string
	BrandName     string
	BrandAliases  []string
	CallbackURL   *string
	WebhookSecret *string
	Project       *string
	TrackedURL    *string
	// MaxPages is the audit's page budget; 0 means 1, the homepage alone.
	MaxPages int
	// Language is the one requested for the report; nil resolves it from
	// the site when the scan completes.
	Language *string
	// Competitors are the competitors' sites the scan benchmarks against.
	Competitors []string
}

// CompetitorsError is CreateScan's answer to more competitors than the
// plan allows.
type CompetitorsError struct {
	// Limit is the most competitors the organization's plan allows.
	Limit int
}

func (e *CompetitorsError) Error() string {
	return fmt.Sprintf("more competitors than the plan's maximum of %d", e.Limit)
}

// CreateScan checks the subscription, takes one scan of today's quota and
// inserts the scan, all in one transaction. The caller queues the scan's
// job in the same transaction (InTx), so the job exists exactly when the
// scan does.
func (s *Store) CreateScan(ctx context.Context, n NewScan, now time.Time) (Scan, error) {
	var created Scan
	err := s.atomically(ctx, func(tx *Store) error {
		org, err := tx.GetOrganization(ctx, n.OrgID)
		if err != nil {
			return fmt.Errorf("read organization: %w", err)
		}
		if org.SubscriptionStatus != SubscriptionActive {
			return ErrNoSubscription
		}
		if limit := Limits(org).MaxPages; n.MaxPages > limit {
			return &MaxPagesError{Limit: limit}
		}
		if limit := Limits(org).MaxCompetitors; len(n.Competitors) > limit {
			return &CompetitorsError{Limit: limit}
		}
		if err := tx.consumeDailyScan(ctx, n.OrgID, now, Limits(org).DailyScans); err != nil {
			return err
		}
		row, err := tx.q.CreateScan(ctx, tx.conn, db.CreateScanParams{
			OrgID: n.OrgID, APIKeyID: n.APIKeyID, ScheduleID: n.ScheduleID, Source: string(n.Source),
			URL: n.URL, Domain: n.Domain, BrandName: n.BrandName, BrandAliases: orEmpty(n.BrandAliases),
			CallbackURL: n.CallbackURL, WebhookSecret: n.WebhookSecret,
			Project: n.Project, TrackedURL: n.TrackedURL, MaxPages: int32(min(max(n.MaxPages, 1), math.MaxInt32)),
			Language: n.Language, Competitors: orEmpty(n.Competitors),
		})
		if err != nil {
			return fmt.Errorf("insert scan: %w", err)
		}
		created = scanOf(row)
		return nil
	})
	return created, err
}

// SetScanJob records the queue job that runs a scan.
func (s *Store) SetScanJob(ctx context.Context, scanID uuid.UUID, jobID int64) error {
	return s.q.SetScanJob(ctx, s.conn, db.SetScanJobParams{ID: scanID, JobID: &jobID})
}

// LockScan returns a scan of the organization, locked until the end of the
// caller's transaction.
func (s *Store) LockScan(ctx context.Context, orgID, id uuid.UUID) (Scan, error) {
	scan, err := s.q.LockScanForOrg(ctx, s.conn, db.LockScanForOrgParams{ID: id, OrgID: orgID})
	return one(scan, err, scanOf)
}

// GetScan returns a scan of the organization.
func (s *Store) GetScan(ctx context.Context, orgID, id uuid.UUID) (Scan, error) {
	scan, err := s.q.GetScanForOrg(ctx, s.conn, db.GetScanForOrgParams{ID: id, OrgID: orgID})
	return one(scan, err, scanOf)
}

// GetScanView returns what the API shows of a scan of the organization.
func (s *Store) GetScanView(ctx context.Context, orgID, id uuid.UUID) (ScanView, error) {
	scan, err := s.q.GetScanViewForOrg(ctx, s.conn, db.GetScanViewForOrgParams{ID: id, OrgID: orgID})
	return one(scan, err, func(r db.GetScanViewForOrgRow) ScanView { return scanViewOf(db.ListScansForOrgRow(r)) })
}

// GetScanByID reads a scan without an organization scope (the runner).
func (s *Store) GetScanByID(ctx context.Context, id uuid.UUID) (Scan, error) {
	scan, err := s.q.GetScan(ctx, s.conn, id)
	return one(scan, err, scanOf)
}

// ScanFilter selects scans in lists and exports; nil fields do not filter.
type ScanFilter struct {
	Status        *ScanStatus
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

// maxListRows is the most rows ListScansForOrg returns whatever its limit
// (the LIMIT inside it): the largest page plus the row that tells whether
// another page follows.
const maxListRows = 101

// Empty reports whether f selects every scan.
func (f ScanFilter) Empty() bool { return f == ScanFilter{} }

// planPerCall runs a query as an unnamed statement, which PostgreSQL plans
// for each call's values. A catch-all query (each filter "$n IS NULL OR
// …") kept as a prepared statement may be given a generic plan after five
// calls, one that cannot know which filters are set: in a large
// organization that plan may walk every scan to find the few a filter
// selects. pgx keeps the statement's description, so this costs no round
// trip, only the planning.
type planPerCall struct{ db.DBTX }

func (p planPerCall) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return p.DBTX.Query(ctx, sql, append([]any{pgx.QueryExecModeCacheDescribe}, args...)...)
}

// ListScans returns up to limit scans after cursor, newest first.
func (s *Store) ListScans(ctx context.Context, orgID uuid.UUID, f ScanFilter, after *Cursor, limit int) ([]ScanView, error) {
	var cursorAt *time.Time
	var cursorID *uuid.UUID
	if after != nil {
		cursorAt, cursorID = &after.CreatedAt, &after.ID
	}
	if f.Empty() && limit <= maxListRows {
		rows, err := s.q.ListScansForOrg(ctx, s.conn, db.ListScansForOrgParams{
			OrgID: orgID, CursorCreatedAt: cursorAt, CursorID: cursorID, RowLimit: int32(limit),
		})
		return all(rows, err, scanViewOf)
	}
	rows, err := s.q.ListScansForOrgFiltered(ctx, planPerCall{s.conn}, db.ListScansForOrgFilteredParams{
		OrgID: orgID, Status: (*string)(f.Status), Project: f.Project, URL: f.URL, Domain: f.Domain,
		CreatedAfter: f.CreatedAfter, CreatedBefore: f.CreatedBefore,
		CursorCreatedAt: cursorAt, CursorID: cursorID, RowLimit: int32(limit),
	})
	return all(rows, err, func(r db.ListScansForOrgFilteredRow) ScanView { return scanViewOf(db.ListScansForOrgRow(r)) })
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
	return one(scan, err, scanOf)
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

// StartScan moves a pending (or rescued running) scan to running. It
// returns ErrNotFound when the scan is gone or already finished: the job
// then has nothing left to do.
func (s *Store) StartScan(ctx context.Context, id uuid.UUID) (Scan, error) {
	scan, err := s.q.StartScan(ctx, s.conn, id)
	return one(scan, err, scanOf)
}

// ScanShare is what an organization holds of the scan workers, measured as
// one of its scans is about to start.
type ScanShare struct {
	OrgID uuid.UUID
	// Running counts the organization's other running scans, in every
	// process.
	Running int
	// OthersWaiting is whether another organization has scans waiting
	// while it runs fewer than the share.
	OthersWaiting bool
}

// ScanShare measures the share of the organization of a scan about to
// start: a running scan counts for live after its row last changed (no job
// runs longer, so a dead worker's scans stop counting). Without a lock,
// concurrent starts of the organization may count the same scans; see
// LockScanShare. It returns ErrNotFound when the scan is gone or already
// finished.
func (s *Store) ScanShare(ctx context.Context, scanID uuid.UUID, share int, live time.Duration) (ScanShare, error) {
	row, err := s.q.ScanShare(ctx, s.conn, db.ScanShareParams{
		ScanID: scanID, LiveSeconds: live.Seconds(), Share: int32(min(share, math.MaxInt32)),
	})
	if err != nil {
		return ScanShare{}, notFound(err)
	}
	return ScanShare{OrgID: row.OrgID, Running: int(row.Running), OthersWaiting: row.OthersWaiting}, nil
}

// LockScanShare is ScanShare under a lock on the organization, held until
// the caller's transaction ends, so that the starts of its scans in every
// process are decided one after the other, each counting those before it.
func (s *Store) LockScanShare(ctx context.Context, scanID uuid.UUID, share int, live time.Duration) (ScanShare, error) {
	if err := s.requireTx("LockScanShare"); err != nil {
		return ScanShare{}, err
	}
	if _, err := s.q.LockScanOrg(ctx, s.conn, scanID); err != nil {
		return ScanShare{}, notFound(err)
	}
	return s.ScanShare(ctx, scanID, share, live)
}

// ClaimScan is StartScan for a scan whose organization LockScanShare has
// locked in this transaction: the start is stamped as the row changes, so
// a start that waited for the lock comes after the starts it waited for.
func (s *Store) ClaimScan(ctx context.Context, id uuid.UUID) (Scan, error) {
	scan, err := s.q.ClaimScan(ctx, s.conn, id)
	return one(scan, err, scanOf)
}

// RingScore is one ring's score and grade.
type RingScore struct {
	Score int
	Grade string
}

// Completion is the result of a finished scan.
type Completion struct {
	ScanID         uuid.UUID
	ScoringVersion string
	Overall        float64
	OverallGrade   string
	Search         RingScore
	Visibility     RingScore
	Trust          RingScore
	Checks         []CheckRow
	Report         any // JSON document
	// Triage is nil when the dossier could not be computed; the scan
	// completes without it.
	Triage *TriageDoc
	// Language is the one the report is written in, resolved; nil keeps
	// the scan's.
	Language *string
	// Snapshot is what the scan fetched (fetch.Snapshot), nil to keep none.
	Snapshot       []byte
	SnapshotFormat int
}

// CompleteScan stores the check results, report, triage and snapshot and
// marks the scan completed, all in one transaction: the caller's, where it
// also queues what follows completion (callbacks, a triage recompute), so
// nothing exists without the state change. It returns ErrNotFound when the
// scan is no longer running.
func (s *Store) CompleteScan(ctx context.Context, c Completion) (Scan, error) {
	var done Scan
	err := s.atomically(ctx, func(tx *Store) error {
		if err := tx.putCheckResults(ctx, c.ScanID, c.Checks); err != nil {
			return err
		}
		if err := tx.putReport(ctx, c.ScanID, c.ScoringVersion, c.Report); err != nil {
			return err
		}
		i32 := func(v int) *int32 { x := int32(v); return &x }
		row, err := tx.q.CompleteScan(ctx, tx.conn, db.CompleteScanParams{
			ID: c.ScanID, OverallScore: &c.Overall, OverallGrade: &c.OverallGrade,
			SearchScore: i32(c.Search.Score), SearchGrade: &c.Search.Grade,
			VisibilityScore: i32(c.Visibility.Score), VisibilityGrade: &c.Visibility.Grade,
			TrustScore: i32(c.Trust.Score), TrustGrade: &c.Trust.Grade,
			ScoringVersion: &c.ScoringVersion, Language: c.Language,
		})
		if done, err = one(row, err, scanOf); err != nil {
			return err
		}
		if c.Triage != nil {
			if err := tx.PutTriage(ctx, c.ScanID, *c.Triage); err != nil {
				return err
			}
		}
		if c.Snapshot != nil {
			if err := tx.PutSnapshot(ctx, c.ScanID, c.SnapshotFormat, c.Snapshot); err != nil {
				return err
			}
		}
		return nil
	})
	return done, err
}

// FailScan marks a scan failed with a code and a sentence for the client;
// the caller queues its callback in the same transaction. ErrNotFound means
// it had already finished.
func (s *Store) FailScan(ctx context.Context, id uuid.UUID, code, message string) (Scan, error) {
	failed, err := s.q.FailScan(ctx, s.conn, db.FailScanParams{ID: id, ErrorCode: &code, ErrorMessage: &message})
	return one(failed, err, scanOf)
}

// AbandonedScans lists unfinished scans whose queue job no longer exists
// or will never run again (discarded or cancelled after a crash on its last
// attempt), untouched for longer than grace. The runner fails them so no
// scan stays running forever.
func (s *Store) AbandonedScans(ctx context.Context, grace time.Duration, limit int) ([]uuid.UUID, error) {
	rows, err := s.conn.Query(ctx, `
		SELECT s.id FROM scans s
		WHERE s.status IN ('pending', 'running') AND s.updated_at < now() - make_interval(secs => $1)
		  AND NOT EXISTS (SELECT 1 FROM river_job j WHERE j.id = s.job_id
		                  AND j.state IN ('available', 'pending', 'running', 'retryable', 'scheduled'))
		ORDER BY s.updated_at LIMIT $2`, grace.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("find abandoned scans: %w", err)
	}
	defer rows.Close()
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// CompletedScansWithoutTriage lists completed scans that have no dossier,
// oldest first.
func (s *Store) CompletedScansWithoutTriage(ctx context.Context, limit int) ([]uuid.UUID, error) {
	return s.q.CompletedScansWithoutTriage(ctx, s.conn, int32(limit))
}

// ExportRows is what an export's rows are: scans, their checks or the
// pages of their whole-site audits.
type ExportRows int

// The kinds of export rows.
const (
	ExportScans ExportRows = iota
	ExportChecks
	ExportPages
)

// ExportCSV writes the organization's scans matching f as CSV, newest
// first, at most limit of them (0: all), header row first; with checks,
// one row per check of those scans instead. The rows come from a single
// COPY … TO STDOUT and go to w as PostgreSQL sends them, so memory stays
// flat whatever the count. It returns the number of data rows written.
//
// Nothing is written before PostgreSQL has started answering, so an
// error returned with nothing written is an ordinary failure; one after
// the first write means the output is incomplete.
func (s *Store) ExportCSV(ctx context.Context, orgID uuid.UUID, f ScanFilter, limit int, rows ExportRows, w io.Writer) (int64, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	p := db.SetExportFilterParams{
		OrgID: orgID, Status: (*string)(f.Status), Project: f.Project, URL: f.URL, Domain: f.Domain,
		CreatedAfter: f.CreatedAfter, CreatedBefore: f.CreatedBefore,
	}
	if limit > 0 {
		l := int64(limit)
		p.RowLimit = &l
	}
	if err := s.q.SetExportFilter(ctx, tx, p); err != nil {
		return 0, err
	}
	out := &copyOut{conn: tx.Conn().PgConn(), w: w}
	switch rows {
	case ExportChecks:
		err = s.q.ExportChecksCSV(ctx, out)
	case ExportPages:
		err = s.q.ExportPagesCSV(ctx, out)
	default:
		err = s.q.ExportScansCSV(ctx, out)
	}
	if err != nil {
		return 0, err
	}
	return out.tag.RowsAffected(), tx.Commit(ctx)
}

// copyOut runs the generated COPY … TO STDOUT statements with COPY's own
// protocol, writing what PostgreSQL sends to w; sqlc names and checks the
// statements, this only changes how they are sent.
type copyOut struct {
	conn *pgconn.PgConn
	w    io.Writer
	tag  pgconn.CommandTag
}

var errNotCopy = errors.New("copyOut runs COPY statements only")

func (c *copyOut) Exec(ctx context.Context, sql string, _ ...any) (pgconn.CommandTag, error) {
	tag, err := c.conn.CopyTo(ctx, c.w, sql)
	c.tag = tag
	return tag, err
}

func (c *copyOut) Query(context.Context, string, ...any) (pgx.Rows, error) { return nil, errNotCopy }

func (c *copyOut) QueryRow(context.Context, string, ...any) pgx.Row { return errRow{} }

func (c *copyOut) CopyFrom(context.Context, pgx.Identifier, []string, pgx.CopyFromSource) (int64, error) {
	return 0, errNotCopy
}

type errRow struct{}

func (errRow) Scan(...any) error { return errNotCopy }

// orEmpty keeps a list column from being written as NULL.
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// PreviousScheduledScan returns the last completed scan of the schedule
// that created scan, made before it.
func (s *Store) PreviousScheduledScan(ctx context.Context, scan Scan) (Scan, error) {
	if scan.ScheduleID == nil {
		return Scan{}, ErrNotFound
	}
	prev, err := s.q.GetPreviousScheduledScan(ctx, s.conn, db.GetPreviousScheduledScanParams{
		ScheduleID: scan.ScheduleID, CreatedAt: scan.CreatedAt, ID: scan.ID,
	})
	return one(prev, err, scanOf)
}
