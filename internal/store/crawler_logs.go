package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// CrawlerLogStatus is where an uploaded access log is in its analysis.
type CrawlerLogStatus string

// The states crawler_logs.status holds.
const (
	CrawlerLogQueued    CrawlerLogStatus = "queued"
	CrawlerLogRunning   CrawlerLogStatus = "running"
	CrawlerLogSucceeded CrawlerLogStatus = "succeeded"
	CrawlerLogFailed    CrawlerLogStatus = "failed"
)

// CrawlerLogChunkBytes is the size of the chunks an upload is kept in: big
// enough that a 1 GiB log is a thousand rows, small enough that reading
// one costs the job little memory.
const CrawlerLogChunkBytes = 1 << 20

// CrawlerLog is an uploaded access log. Result and CrossCheck are the
// engine's JSON, kept as it wrote them.
type CrawlerLog struct {
	ID           uuid.UUID
	OrgID        uuid.UUID
	Domain       string
	ScheduleID   *uuid.UUID
	Status       CrawlerLogStatus
	Bytes        int64
	Gzip         bool
	ErrorCode    string
	ErrorMessage string
	Result       []byte
	CrossCheck   []byte
	CreatedAt    time.Time
	CompletedAt  *time.Time
}

func crawlerLogOf(r db.CrawlerLog) CrawlerLog {
	l := CrawlerLog{
		ID: r.ID, OrgID: r.OrgID, Domain: r.Domain, ScheduleID: r.ScheduleID, Status: CrawlerLogStatus(r.Status),
		Bytes: r.Bytes, Gzip: r.Gzip, Result: r.Result, CrossCheck: r.CrossCheck, CreatedAt: r.CreatedAt,
		CompletedAt: r.CompletedAt,
	}
	if r.ErrorCode != nil {
		l.ErrorCode = *r.ErrorCode
	}
	if r.ErrorMessage != nil {
		l.ErrorMessage = *r.ErrorMessage
	}
	return l
}

// Cursor is the log's place in a list.
func (l CrawlerLog) Cursor() Cursor { return Cursor{CreatedAt: l.CreatedAt, ID: l.ID} }

// NewCrawlerLog is what an upload stores besides its bytes.
type NewCrawlerLog struct {
	OrgID      uuid.UUID
	Domain     string
	ScheduleID *uuid.UUID
	Gzip       bool
}

// ErrUploadTooLarge is CreateCrawlerLog's answer to a body longer than the
// limit it was given; nothing of it is kept.
var ErrUploadTooLarge = errors.New("upload larger than the limit")

// CreateCrawlerLog stores an upload: the row, then body in chunks as it
// is read, then its size. It reads body to its end or to maxBytes, holding
// one chunk at a time; call it inside InTx so that a body that fails half
// way leaves nothing behind.
func (s *Store) CreateCrawlerLog(ctx context.Context, n NewCrawlerLog, body io.Reader, maxBytes int64) (CrawlerLog, error) {
	row, err := s.q.CreateCrawlerLog(ctx, s.conn, db.CreateCrawlerLogParams{
		OrgID: n.OrgID, Domain: n.Domain, ScheduleID: n.ScheduleID, Gzip: n.Gzip,
	})
	if err != nil {
		return CrawlerLog{}, fmt.Errorf("insert crawler log: %w", notFound(err))
	}
	buf := make([]byte, CrawlerLogChunkBytes)
	var total int64
	for seq := int32(0); ; seq++ {
		n, rerr := fill(body, buf)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			// The body failed half way: keep none of it.
			return CrawlerLog{}, fmt.Errorf("read upload: %w", rerr)
		}
		if n > 0 {
			total += int64(n)
			if total > maxBytes {
				return CrawlerLog{}, ErrUploadTooLarge
			}
			if err := s.q.InsertCrawlerLogChunk(ctx, s.conn, db.InsertCrawlerLogChunkParams{LogID: row.ID, Seq: seq, Data: buf[:n]}); err != nil {
				return CrawlerLog{}, fmt.Errorf("store crawler log chunk: %w", err)
			}
		}
		if rerr != nil {
			break // io.EOF
		}
	}
	if err := s.q.SetCrawlerLogBytes(ctx, s.conn, db.SetCrawlerLogBytesParams{ID: row.ID, Bytes: total}); err != nil {
		return CrawlerLog{}, fmt.Errorf("record crawler log size: %w", err)
	}
	row.Bytes = total
	return crawlerLogOf(row), nil
}

// fill reads into buf until it is full or the reader fails; unlike
// io.ReadFull it keeps io.ErrUnexpectedEOF, which from a request body
// means the client stopped half way, apart from a clean end (io.EOF).
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// GetCrawlerLog reads one of the organization's logs.
func (s *Store) GetCrawlerLog(ctx context.Context, orgID, id uuid.UUID) (CrawlerLog, error) {
	row, err := s.q.GetCrawlerLog(ctx, s.conn, db.GetCrawlerLogParams{ID: id, OrgID: orgID})
	return one(row, err, crawlerLogOf)
}

// ListCrawlerLogs pages through the organization's logs, newest first,
// optionally of one domain.
func (s *Store) ListCrawlerLogs(ctx context.Context, orgID uuid.UUID, domain *string, after *Cursor, limit int) ([]CrawlerLog, error) {
	p := db.ListCrawlerLogsParams{OrgID: orgID, Domain: domain, RowLimit: int32(min(limit, 1000))} //nolint:gosec // bounded
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	rows, err := s.q.ListCrawlerLogs(ctx, s.conn, p)
	return all(rows, err, crawlerLogOf)
}

// DeleteCrawlerLog deletes a log with its upload; ErrNotFound when the
// organization has no such log.
func (s *Store) DeleteCrawlerLog(ctx context.Context, orgID, id uuid.UUID) error {
	n, err := s.q.DeleteCrawlerLog(ctx, s.conn, db.DeleteCrawlerLogParams{ID: id, OrgID: orgID})
	if err != nil {
		return fmt.Errorf("delete crawler log: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// StartCrawlerLog marks a log running for the job; ErrNotFound when it is
// finished or gone, so there is nothing to do.
func (s *Store) StartCrawlerLog(ctx context.Context, id uuid.UUID) (CrawlerLog, error) {
	row, err := s.q.StartCrawlerLog(ctx, s.conn, id)
	return one(row, err, crawlerLogOf)
}

// FinishCrawlerLog stores the analysis and deletes the upload, in one
// transaction when called inside InTx.
func (s *Store) FinishCrawlerLog(ctx context.Context, id uuid.UUID, result, crossCheck []byte) error {
	if _, err := s.q.FinishCrawlerLog(ctx, s.conn, db.FinishCrawlerLogParams{ID: id, Result: result, CrossCheck: crossCheck}); err != nil {
		return fmt.Errorf("store crawler log analysis: %w", err)
	}
	return s.q.DeleteCrawlerLogChunks(ctx, s.conn, id)
}

// FailCrawlerLog records why a log could not be analysed and deletes its
// upload.
func (s *Store) FailCrawlerLog(ctx context.Context, id uuid.UUID, code, message string) error {
	if _, err := s.q.FailCrawlerLog(ctx, s.conn, db.FailCrawlerLogParams{ID: id, ErrorCode: &code, ErrorMessage: &message}); err != nil {
		return fmt.Errorf("record crawler log failure: %w", err)
	}
	return s.q.DeleteCrawlerLogChunks(ctx, s.conn, id)
}

// CrawlerLogReader reads a stored upload back in order, one chunk in
// memory at a time.
func (s *Store) CrawlerLogReader(ctx context.Context, id uuid.UUID) io.Reader {
	return &chunkReader{ctx: ctx, s: s, id: id}
}

type chunkReader struct {
	ctx  context.Context
	s    *Store
	id   uuid.UUID
	seq  int32
	data []byte
	done bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.data) == 0 {
		if r.done {
			return 0, io.EOF
		}
		data, err := r.s.q.GetCrawlerLogChunk(r.ctx, r.s.conn, db.GetCrawlerLogChunkParams{LogID: r.id, Seq: r.seq})
		if err != nil {
			if errors.Is(notFound(err), ErrNotFound) {
				r.done = true
				continue
			}
			return 0, fmt.Errorf("read crawler log chunk %d: %w", r.seq, err)
		}
		r.seq++
		r.data = data
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// siteHosts are the host names one site goes by in logs and scans: the
// host with and without a leading www. (a log filed under example.com is
// the site scanned at https://www.example.com/, and the other way round).
func siteHosts(host string) []string {
	host = strings.ToLower(host)
	if bare, ok := strings.CutPrefix(host, "www."); ok {
		return []string{host, bare}
	}
	return []string{host, "www." + host}
}

// LatestCrawlerLogOfSite is the organization's latest analysed log of
// domain (with or without its www.); ErrNotFound when there is none.
func (s *Store) LatestCrawlerLogOfSite(ctx context.Context, orgID uuid.UUID, domain string) (CrawlerLog, error) {
	row, err := s.q.LatestCrawlerLogOfSite(ctx, s.conn, db.LatestCrawlerLogOfSiteParams{OrgID: orgID, Domains: siteHosts(domain)})
	return one(row, err, crawlerLogOf)
}

// AuditOfSite is the audit a log is set beside.
type AuditOfSite struct {
	ScanID   uuid.UUID
	URL      string
	MaxPages int
}

// LatestAuditOfSite is the organization's latest completed scan of
// domain (with or without its www.); ErrNotFound when there is none.
func (s *Store) LatestAuditOfSite(ctx context.Context, orgID uuid.UUID, domain string) (AuditOfSite, error) {
	row, err := s.q.LatestCompletedScanOfDomain(ctx, s.conn, db.LatestCompletedScanOfDomainParams{OrgID: orgID, Domains: siteHosts(domain)})
	if err != nil {
		return AuditOfSite{}, notFound(err)
	}
	return AuditOfSite{ScanID: row.ID, URL: row.URL, MaxPages: int(row.MaxPages)}, nil
}

// ScanPageURLs returns up to limit of a scan's audited page addresses.
func (s *Store) ScanPageURLs(ctx context.Context, scanID uuid.UUID, limit int) ([]string, error) {
	rows, err := s.q.ScanPageURLs(ctx, s.conn, db.ScanPageURLsParams{ScanID: scanID, RowLimit: int32(min(limit, 100000))}) //nolint:gosec // bounded
	if err != nil {
		return nil, fmt.Errorf("read scan pages: %w", err)
	}
	return rows, nil
}
