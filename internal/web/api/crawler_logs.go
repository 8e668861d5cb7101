package api

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"
	"golang.org/x/net/idna"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// Access logs: an upload is stored in chunks as it streams in, in the
// transaction that queues its analysis, so a log exists exactly when its
// job does and an upload cut off half way leaves nothing.

// DefaultCrawlerLogMaxBytes is the largest upload when Deps says nothing.
const DefaultCrawlerLogMaxBytes = 1 << 30

func (s *Server) crawlerLogMaxBytes() int64 {
	if s.d.CrawlerLogMaxBytes > 0 {
		return s.d.CrawlerLogMaxBytes
	}
	return DefaultCrawlerLogMaxBytes
}

// logMediaTypes are the content types an access log is read in; gzip is
// also recognised by its first bytes, whatever the type says.
var logMediaTypes = map[string]bool{
	"application/gzip": true, "application/x-gzip": true, "application/x-ndjson": true,
	"application/jsonl": true, "application/json-lines": true, "application/octet-stream": true,
}

// CreateCrawlerLog stores an uploaded access log and queues its analysis.
func (s *Server) CreateCrawlerLog(ctx context.Context, req api.CreateCrawlerLogRequestObject) (api.CreateCrawlerLogResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	n := store.NewCrawlerLog{OrgID: p.OrgID}
	switch prm := req.Params; {
	case prm.Domain != nil && prm.ScheduleID != nil:
		return nil, apierror.New(apierror.CodeInvalidParameter, "schedule_id", "Give domain or schedule_id, not both.")
	case prm.ScheduleID != nil:
		sched, err := s.d.Store.GetSchedule(ctx, p.OrgID, *prm.ScheduleID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, apierror.New(apierror.CodeScheduleNotFound, "schedule_id", "No schedule with id %s.", *prm.ScheduleID)
		}
		if err != nil {
			return nil, err
		}
		n.Domain, n.ScheduleID = strings.ToLower(sched.Domain), prm.ScheduleID
	case prm.Domain != nil:
		d, ok := logDomain(*prm.Domain)
		if !ok {
			return nil, apierror.New(apierror.CodeInvalidParameter, "domain", "domain must be a host name such as www.example.com (or a URL of it).")
		}
		n.Domain = d
	default:
		return nil, apierror.New(apierror.CodeMissingParameter, "domain", "Name the site the log is of: domain=www.example.com, or schedule_id.")
	}
	if err := checkLogMediaType(req.ContentType); err != nil {
		return nil, err
	}
	if req.Body == nil {
		return nil, apierror.New(apierror.CodeMissingParameter, "", "The request body is the access log; it is empty.")
	}
	body := bufio.NewReaderSize(uploadReader{req.Body}, 64<<10)
	head, _ := body.Peek(2)
	if len(head) == 0 {
		return nil, apierror.New(apierror.CodeMissingParameter, "", "The request body is the access log; it is empty.")
	}
	n.Gzip = len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b
	var lg store.CrawlerLog
	err = s.d.Store.InTx(ctx, func(tx *store.Store) error {
		var err error
		if lg, err = tx.CreateCrawlerLog(ctx, n, body, s.crawlerLogMaxBytes()); err != nil {
			return err
		}
		return s.d.CrawlerLogs.Enqueue(ctx, tx, lg.ID)
	})
	var maxBytes *http.MaxBytesError
	switch {
	case errors.Is(err, store.ErrUploadTooLarge) || errors.As(err, &maxBytes):
		return nil, apierror.New(apierror.CodeRequestTooLarge, "", "An access log must not exceed %d bytes as uploaded; split it, or gzip it.", s.crawlerLogMaxBytes())
	case errors.As(err, new(uploadReadError)):
		return nil, apierror.New(apierror.CodeMalformedRequest, "", "The upload ended before its end: the connection closed or the transfer encoding is malformed. Nothing was stored.")
	case err != nil:
		return nil, err
	}
	return api.CreateCrawlerLog202JSONResponse{Body: toAPICrawlerLog(lg, nil)}, nil
}

// uploadReader marks the errors of reading the request body, so that a
// client that stopped sending half way is told so, apart from an error of
// the database the upload was being written to.
type uploadReader struct{ r io.Reader }

func (u uploadReader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = uploadReadError{err}
	}
	return n, err
}

// uploadReadError is an error reading an upload's body.
type uploadReadError struct{ err error }

func (e uploadReadError) Error() string { return "read upload: " + e.err.Error() }
func (e uploadReadError) Unwrap() error { return e.err }

// checkLogMediaType accepts text, NDJSON and gzip; anything else (a form
// encoding curl sends by default, an image) gets a 415 that says how to
// send a log.
func checkLogMediaType(ct string) error {
	if ct == "" {
		return nil // no type: the body is sniffed
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (strings.HasPrefix(mt, "text/") || logMediaTypes[mt]) {
		return nil
	}
	shown := ct
	if err == nil {
		shown = mt
	}
	if len(shown) > 100 {
		shown = shown[:100] + "…"
	}
	return apierror.New(apierror.CodeUnsupportedMedia, "",
		"An access log is sent as text/plain, application/x-ndjson or application/gzip, not %q (with curl: --data-binary @access.log -H 'Content-Type: text/plain').", shown)
}

// logDomain is the host name a log is filed under: lower case, in ASCII
// (IDNA), from a bare host or a URL's host, without a port.
func logDomain(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil {
			return "", false
		}
		raw = u.Hostname()
	} else if h, _, err := net.SplitHostPort(raw); err == nil {
		raw = h
	}
	raw = strings.TrimSuffix(raw, ".")
	host, err := idna.Lookup.ToASCII(raw)
	if err != nil || host == "" || len(host) > 253 || !strings.Contains(host, ".") || net.ParseIP(host) != nil {
		return "", false
	}
	return strings.ToLower(host), true
}

// GetCrawlerLog reads a log and its analysis.
func (s *Server) GetCrawlerLog(ctx context.Context, req api.GetCrawlerLogRequestObject) (api.GetCrawlerLogResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	lg, err := s.d.Store.GetCrawlerLog(ctx, p.OrgID, req.LogID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, crawlerLogNotFound(req.LogID.String())
	}
	if err != nil {
		return nil, err
	}
	var include []api.GetCrawlerLogParamsInclude
	if req.Params.Include != nil {
		include = *req.Params.Include
	}
	return api.GetCrawlerLog200JSONResponse{Body: toAPICrawlerLog(lg, include)}, nil
}

// ListCrawlerLogs lists the organization's logs, newest first.
func (s *Server) ListCrawlerLogs(ctx context.Context, req api.ListCrawlerLogsRequestObject) (api.ListCrawlerLogsResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	var domain *string
	if req.Params.Domain != nil {
		d, ok := logDomain(*req.Params.Domain)
		if !ok {
			return nil, apierror.New(apierror.CodeInvalidParameter, "domain", "domain must be a host name such as www.example.com.")
		}
		domain = &d
	}
	pg, err := keysetPage(req.Params.Cursor, req.Params.Limit, func(after *store.Cursor, limit int) ([]store.CrawlerLog, error) {
		return s.d.Store.ListCrawlerLogs(ctx, p.OrgID, domain, after, limit)
	}, func(l store.CrawlerLog) api.CrawlerLog { return toAPICrawlerLog(l, nil) })
	if err != nil {
		return nil, err
	}
	return api.ListCrawlerLogs200JSONResponse{Body: api.CrawlerLogList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}}, nil
}

// DeleteCrawlerLog deletes a log, its upload and its analysis.
func (s *Server) DeleteCrawlerLog(ctx context.Context, req api.DeleteCrawlerLogRequestObject) (api.DeleteCrawlerLogResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	err = s.d.Store.DeleteCrawlerLog(ctx, p.OrgID, req.LogID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, crawlerLogNotFound(req.LogID.String())
	}
	if err != nil {
		return nil, err
	}
	return api.DeleteCrawlerLog204Response{}, nil
}

func crawlerLogNotFound(id string) error {
	return apierror.New(apierror.CodeCrawlerLogNotFound, "log_id", "No access log with id %s.", id)
}

// toAPICrawlerLog maps a stored log and its analysis to the contract;
// include adds the per-day and per-page breakdowns. An analysis that does
// not decode (never expected: the job wrote it) shows as not analysed.
func toAPICrawlerLog(l store.CrawlerLog, include []api.GetCrawlerLogParamsInclude) api.CrawlerLog {
	out := api.CrawlerLog{
		ID: l.ID, Object: api.CrawlerLogObjectCrawlerLog, Domain: l.Domain, ScheduleID: l.ScheduleID,
		Status: api.CrawlerLogStatus(l.Status), Bytes: l.Bytes, Gzip: l.Gzip,
		CreatedAt: l.CreatedAt.UTC(), CompletedAt: utcOrNil(l.CompletedAt), Bots: []api.CrawlerLogBot{},
	}
	if l.Status == store.CrawlerLogFailed {
		out.Error = &api.CrawlerLogError{Code: l.ErrorCode, Message: l.ErrorMessage}
	}
	if l.Status != store.CrawlerLogSucceeded {
		return out
	}
	var res crawlerlog.Result
	if err := json.Unmarshal(l.Result, &res); err != nil {
		return out
	}
	out.Lines, out.ParsedLines, out.UnparsedLines = &res.Lines, &res.ParsedLines, &res.UnparsedLines
	out.OtherHits, out.OtherHostLines = &res.OtherHits, &res.OtherHostLines
	out.FirstSeen, out.LastSeen = timeOf(res.FirstSeen), timeOf(res.LastSeen)
	unparsed := make([]api.CrawlerLogUnparsed, 0, len(res.Unparsed))
	for _, u := range res.Unparsed {
		unparsed = append(unparsed, api.CrawlerLogUnparsed{Reason: u.Reason, Count: u.Count, FirstLine: u.FirstLine})
	}
	out.Unparsed = &unparsed
	formats := make([]api.CrawlerLogFormat, 0, len(res.Formats))
	for f, n := range res.Formats {
		formats = append(formats, api.CrawlerLogFormat{Format: f, Lines: n})
	}
	slices.SortFunc(formats, func(a, b api.CrawlerLogFormat) int {
		return cmp.Or(cmp.Compare(b.Lines, a.Lines), strings.Compare(a.Format, b.Format))
	})
	out.Formats = &formats
	out.RangesUpdated = oldestRangeDate(res.RangeLists)
	days, pages := slices.Contains(include, api.CrawlerLogIncludeDays), slices.Contains(include, api.CrawlerLogIncludePages)
	for _, b := range res.Bots {
		out.Bots = append(out.Bots, report.CrawlerBot(b, days, pages))
	}
	var cc crawlerlogs.CrossCheck
	if len(l.CrossCheck) > 0 && json.Unmarshal(l.CrossCheck, &cc) == nil {
		out.CrossCheck = toAPICrossCheck(cc)
	}
	return out
}

// timeOf reads the analysis' RFC 3339 times; nil for none.
func timeOf(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// oldestRangeDate is the date of the oldest published range list used:
// how current the verification is at worst.
func oldestRangeDate(lists []crawlerlog.RangeList) *openapi_types.Date {
	var oldest time.Time
	for _, l := range lists {
		if !l.Present || len(l.Fetched) < len(time.DateOnly) {
			continue
		}
		t, err := time.Parse(time.DateOnly, l.Fetched[:len(time.DateOnly)])
		if err == nil && (oldest.IsZero() || t.Before(oldest)) {
			oldest = t
		}
	}
	if oldest.IsZero() {
		return nil
	}
	return &openapi_types.Date{Time: oldest}
}

func toAPICrossCheck(cc crawlerlogs.CrossCheck) *api.CrawlerLogCrossCheck {
	if cc.Status != crawlerlogs.Measured {
		return report.CrawlerCrossCheckNotMeasured(cc.Reason, cc.ScanID)
	}
	return report.CrawlerCrossCheck(cc.Result, cc.ScanID)
}
