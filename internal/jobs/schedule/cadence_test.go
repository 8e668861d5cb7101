package schedule

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
)

func day(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestAddMonths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from string
		n    int
		want string
	}{
		{"2027-01-31T09:30:00Z", 1, "2027-02-28T09:30:00Z"},
		{"2028-01-31T09:30:00Z", 1, "2028-02-29T09:30:00Z"}, // leap year
		{"2027-01-31T09:30:00Z", 2, "2027-03-31T09:30:00Z"},
		{"2027-01-31T09:30:00Z", 3, "2027-04-30T09:30:00Z"},
		{"2027-03-31T00:00:00Z", -1, "2027-02-28T00:00:00Z"},
		{"2027-08-31T23:59:59Z", 1, "2027-09-30T23:59:59Z"},
		{"2027-11-30T12:00:00Z", 3, "2028-02-29T12:00:00Z"}, // across the year, into a leap February
		{"2027-12-15T12:00:00Z", 1, "2028-01-15T12:00:00Z"},
		{"2027-05-15T12:00:00Z", 24, "2029-05-15T12:00:00Z"},
		{"2100-01-29T00:00:00Z", 1, "2100-02-28T00:00:00Z"}, // 2100 is not a leap year
		{"2027-02-28T00:00:00Z", 1, "2027-03-28T00:00:00Z"}, // a short month's last day is not "month end"
	} {
		require.Equal(t, day(tc.want), AddMonths(day(tc.from), tc.n), "%s + %d months", tc.from, tc.n)
	}

	// Another zone is taken in UTC: the instant is what is kept.
	paris := time.FixedZone("CET", 3600)
	got := AddMonths(time.Date(2027, 2, 1, 0, 30, 0, 0, paris), 1) // 31 Jan 23:30 UTC
	require.Equal(t, day("2027-02-28T23:30:00Z"), got)
}

func TestOccurrenceCountsFromTheAnchor(t *testing.T) {
	t.Parallel()
	anchor := day("2027-01-31T08:00:00Z")
	var monthly []string
	for n := 1; n <= 12; n++ {
		monthly = append(monthly, Occurrence(anchor, store.Monthly, n).Format("2006-01-02"))
	}
	require.Equal(t, []string{
		"2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30", "2027-07-31",
		"2027-08-31", "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31",
	}, monthly, "the n-th run is anchor + n months, clamped, never the clamped day carried on")

	var quarterly []string
	for n := 1; n <= 4; n++ {
		quarterly = append(quarterly, Occurrence(day("2027-11-30T08:00:00Z"), store.Quarterly, n).Format("2006-01-02"))
	}
	require.Equal(t, []string{"2028-02-29", "2028-05-30", "2028-08-30", "2028-11-30"}, quarterly)
}

func TestNextDue(t *testing.T) {
	t.Parallel()
	anchor := day("2027-01-31T08:00:00Z")
	for _, tc := range []struct {
		name string
		f    store.Frequency
		t    string
		want string
	}{
		{"at the anchor", store.Monthly, "2027-01-31T08:00:00Z", "2027-02-28T08:00:00Z"},
		{"just before the first run", store.Monthly, "2027-02-28T07:59:59Z", "2027-02-28T08:00:00Z"},
		{"at the first run", store.Monthly, "2027-02-28T08:00:00Z", "2027-03-31T08:00:00Z"},
		{"a retry the next day", store.Monthly, "2027-03-01T00:00:00Z", "2027-03-31T08:00:00Z"},
		{"months missed are not made up", store.Monthly, "2027-07-04T00:00:00Z", "2027-07-31T08:00:00Z"},
		{"quarterly", store.Quarterly, "2027-01-31T08:00:00Z", "2027-04-30T08:00:00Z"},
		{"quarterly after one run", store.Quarterly, "2027-04-30T08:00:00Z", "2027-07-31T08:00:00Z"},
		{"years later", store.Quarterly, "2031-05-01T00:00:00Z", "2031-07-31T08:00:00Z"},
		{"before the anchor", store.Monthly, "2026-12-01T00:00:00Z", "2027-02-28T08:00:00Z"},
	} {
		require.Equal(t, day(tc.want), NextDue(anchor, tc.f, day(tc.t)), tc.name)
	}
}

func TestParseFrequency(t *testing.T) {
	t.Parallel()
	f, err := ParseFrequency("monthly")
	require.NoError(t, err)
	require.Equal(t, 1, Months(f))
	f, err = ParseFrequency("quarterly")
	require.NoError(t, err)
	require.Equal(t, 3, Months(f))
	for _, bad := range []string{"", "store.Monthly", "weekly", "quarterly\x00"} {
		_, err := ParseFrequency(bad)
		require.Error(t, err, bad)
	}
}
