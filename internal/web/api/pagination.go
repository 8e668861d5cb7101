package api

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// page is one page of a list ordered by (created_at, id), newest first.
type page[T any] struct {
	Data       []T
	HasMore    bool
	NextCursor *string
}

// keysetPage reads the page after cursor (decodeCursor) of at most limit
// rows (pageLimit): it asks list for one row more than the page holds to
// learn whether another page follows, and hands out the cursor of the last
// row kept (encodeCursor).
func keysetPage[R interface{ Cursor() store.Cursor }, T any](cursor *string, limit *int,
	list func(after *store.Cursor, limit int) ([]R, error), to func(R) T,
) (page[T], error) {
	after, err := decodeCursor(cursor)
	if err != nil {
		return page[T]{}, err
	}
	n := pageLimit(limit)
	rows, err := list(after, n+1)
	if err != nil {
		return page[T]{}, err
	}
	out := page[T]{Data: make([]T, 0, min(len(rows), n))}
	if len(rows) > n {
		rows = rows[:n]
		out.HasMore = true
		c := encodeCursor(rows[len(rows)-1].Cursor())
		out.NextCursor = &c
	}
	for _, r := range rows {
		out.Data = append(out.Data, to(r))
	}
	return out, nil
}

func encodeCursor(c store.Cursor) string {
	raw := strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "." + c.ID.String()
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// Cursors carry a row's creation time; no row of this service was created
// outside these bounds, and a time outside them must not reach PostgreSQL,
// whose timestamps end at 4713 BC and 294276 AD.
var (
	minCursorTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxCursorTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

// decodeCursor accepts exactly what encodeCursor produces: the canonical
// encoding of a time within the bounds above and a UUID; anything else is
// 422 invalid_parameter naming cursor.
func decodeCursor(s *string) (*store.Cursor, error) {
	if s == nil || *s == "" {
		return nil, nil
	}
	bad := apierror.New(apierror.CodeInvalidParameter, "cursor", "cursor is not a cursor this API returned.")
	raw, err := base64.RawURLEncoding.DecodeString(*s)
	if err != nil {
		return nil, bad
	}
	micros, id, ok := strings.Cut(string(raw), ".")
	if !ok {
		return nil, bad
	}
	n, err := strconv.ParseInt(micros, 10, 64)
	if err != nil {
		return nil, bad
	}
	u, err := uuid.Parse(id)
	if err != nil {
		return nil, bad
	}
	c := store.Cursor{CreatedAt: time.UnixMicro(n).UTC(), ID: u}
	if c.CreatedAt.Before(minCursorTime) || c.CreatedAt.After(maxCursorTime) || encodeCursor(c) != *s {
		return nil, bad
	}
	return &c, nil
}

func pageLimit(l *int) int {
	if l == nil {
		return 20
	}
	return *l
}
