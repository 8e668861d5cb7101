package api

import "github.com/geoscan/geoscan/internal/store"

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
