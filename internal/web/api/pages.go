package api

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// ListScanPages pages through the pages a whole-site audit judged.
func (s *Server) ListScanPages(ctx context.Context, req api.ListScanPagesRequestObject) (api.ListScanPagesResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := ownScan(ctx, req.ScanID, s.d.Store.GetScanView); err != nil {
		return nil, err
	}
	prm := req.Params
	sort := store.PageSortPosition
	if prm.Sort != nil {
		sort = store.PageSort(*prm.Sort)
	}
	after, err := decodePageCursor(prm.Cursor, sort)
	if err != nil {
		return nil, err
	}
	f := store.PageFilter{Check: prm.Check, Group: prm.Group, ScoreLt: prm.ScoreLt, ScoreGte: prm.ScoreGte}
	if prm.Status != nil {
		st := store.PageStatus(*prm.Status)
		f.Status = &st
	}
	n := pageLimit(prm.Limit)
	rows, err := s.d.Store.ListScanPages(ctx, p.OrgID, req.ScanID, f, sort, after, n+1)
	if err != nil {
		return nil, err
	}
	out := api.ScanPageList{Data: make([]api.ScanPage, 0, min(len(rows), n))}
	if len(rows) > n {
		rows = rows[:n]
		out.HasMore = true
		c := encodePageCursor(sort, rows[len(rows)-1].Position)
		out.NextCursor = &c
	}
	for _, r := range rows {
		out.Data = append(out.Data, toAPIPage(r, false))
	}
	return api.ListScanPages200JSONResponse{Body: out}, nil
}

// GetScanPage returns one page of a whole-site audit with its checks.
func (s *Server) GetScanPage(ctx context.Context, req api.GetScanPageRequestObject) (api.GetScanPageResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := ownScan(ctx, req.ScanID, s.d.Store.GetScanView); err != nil {
		return nil, err
	}
	page, err := s.d.Store.GetScanPage(ctx, p.OrgID, req.ScanID, req.PageID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierror.New(apierror.CodePageNotFound, "page_id", "Scan %s has no page with id %s.", req.ScanID, req.PageID)
	}
	if err != nil {
		return nil, err
	}
	return api.GetScanPage200JSONResponse{Body: toAPIPage(page, true)}, nil
}

func toAPIPage(p store.ScanPage, withChecks bool) api.ScanPage {
	out := api.ScanPage{
		ID: p.ID, Position: p.Position, URL: p.URL, Group: p.Group, Type: p.Type,
		Status: api.PageStatus(p.Status), HTTPStatus: p.HTTPStatus, Score: p.Score, Error: p.Error,
	}
	if withChecks {
		checks := make([]api.PageCheck, 0, len(p.Checks))
		for _, c := range p.Checks {
			checks = append(checks, api.PageCheck{ID: c.ID, Status: api.CheckStatus(c.Status), Summary: c.Summary})
		}
		out.Checks = &checks
	}
	return out
}

// A page cursor names the sort it was made for and the position of the
// last page handed out (unique within a scan); the store reads that
// page's sort key, so the cursor holds no site text.
func encodePageCursor(sort store.PageSort, position int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(string(sort) + "." + strconv.Itoa(position)))
}

// decodePageCursor accepts exactly what encodePageCursor produced for
// sort; anything else, a cursor of another sort included, is 422
// invalid_parameter naming cursor.
func decodePageCursor(s *string, sort store.PageSort) (*int, error) {
	if s == nil || *s == "" {
		return nil, nil
	}
	bad := apierror.New(apierror.CodeInvalidParameter, "cursor", "cursor is not a cursor this list returned for sort %s.", string(sort))
	raw, err := base64.RawURLEncoding.DecodeString(*s)
	if err != nil {
		return nil, bad
	}
	name, pos, ok := strings.Cut(string(raw), ".")
	if !ok || name != string(sort) {
		return nil, bad
	}
	n, err := strconv.Atoi(pos)
	if err != nil || n < 0 || encodePageCursor(sort, n) != *s {
		return nil, bad
	}
	return &n, nil
}
