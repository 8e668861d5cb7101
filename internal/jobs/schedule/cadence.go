package schedule

import (
	"fmt"
	"time"

	"github.com/geoscan/geoscan/internal/store"
)

// ParseFrequency checks a stored or requested frequency.
func ParseFrequency[S ~string](s S) (store.Frequency, error) {
	switch f := store.Frequency(s); f {
	case store.Monthly, store.Quarterly:
		return f, nil
	}
	return "", fmt.Errorf("unknown frequency %q", string(s))
}

// Months is the length of one period of f in calendar months.
func Months(f store.Frequency) int {
	if f == store.Monthly {
		return 1
	}
	return 3
}

// AddMonths is t moved n calendar months, keeping the day of the month
// where the target month has it and taking the target month's last day
// where it does not: 31 January + 1 is 28 (or 29) February, never 3 March
// as time.AddDate would normalise it. The time of day is kept. Times are
// taken in UTC, so a schedule's day never shifts with daylight saving.
func AddMonths(t time.Time, n int) time.Time {
	t = t.UTC()
	y, m, d := t.Date()
	// Day 1 of the target month normalises year overflow without touching
	// the day; the day is then clamped to the month's length.
	first := time.Date(y, m+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	d = min(d, daysIn(first.Year(), first.Month()))
	hh, mm, ss := t.Clock()
	return time.Date(first.Year(), first.Month(), d, hh, mm, ss, t.Nanosecond(), time.UTC)
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Occurrence is the n-th run of a schedule anchored at anchor: anchor plus
// n periods, computed from the anchor each time rather than from the run
// before, so a clamped month end does not drag later runs (31 January,
// 28 February, 31 March — not 28 March).
func Occurrence(anchor time.Time, f store.Frequency, n int) time.Time {
	return AddMonths(anchor, n*Months(f))
}

// NextDue is the first occurrence after t, never the anchor itself: the
// run a schedule owes next once everything up to t has been served.
// Periods missed entirely (no process ran the scheduler for months) are
// not made up one by one; the next run is simply the next date of the
// cadence.
func NextDue(anchor time.Time, f store.Frequency, t time.Time) time.Time {
	anchor, t = anchor.UTC(), t.UTC()
	months := (t.Year()-anchor.Year())*12 + int(t.Month()) - int(anchor.Month())
	n := max(months/Months(f)-1, 1)
	for !Occurrence(anchor, f, n).After(t) {
		n++
	}
	return Occurrence(anchor, f, n)
}
