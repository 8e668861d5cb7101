package api

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
)

// requireSameAsEncodingJSON checks appendScanList against encoding/json:
// the same bytes, or an error from both.
func requireSameAsEncodingJSON(t *testing.T, l api.ScanList) {
	t.Helper()
	want, wantErr := json.Marshal(l)
	got, gotErr := appendScanList([]byte("prefix"), l)
	if wantErr != nil {
		require.Error(t, gotErr, "encoding/json fails on %#v", l)
		return
	}
	require.NoError(t, gotErr)
	require.Equal(t, "prefix"+string(want), string(got))
}

func fullScan() api.Scan {
	at := time.Date(2026, 11, 23, 21, 26, 9, 123456000, time.UTC)
	id, sched := uuid.MustParse("40dbc2ae-3526-4ebd-94b1-28cebe5d80a8"), uuid.MustParse("0b9e2f4c-7a1d-4e5f-9c3b-2d8a6f1e0c47")
	return api.Scan{
		ID: id, URL: "https://nimbus-app.test:34543/", Domain: "nimbus-app.test", BrandName: "Nimbus",
		BrandAliases: &[]string{"Nimbus App", "nimbus"}, Status: api.ScanStatusCompleted,
		OverallScore: ptr(34.1), OverallGrade: ptr("F"), SearchScore: ptr(50), SearchGrade: ptr("D"),
		VisibilityScore: ptr(7), VisibilityGrade: ptr("F"), TrustScore: ptr(47), TrustGrade: ptr("D"),
		ScoringVersion: ptr("2026.11"), ErrorCode: ptr("timeout"), ErrorMessage: ptr("too slow"),
		CallbackURL: ptr("https://hooks.example.com/cb"), Project: ptr("q4"), TrackedURL: ptr("https://example.com/t"),
		Source: api.ScanSourceSchedule, ScheduleID: &sched, WebhookSecret: ptr("whsec_q3yS8N0u6bqHq2t1P9Rk3V2o0L0m9Q1qfE6s5t4u3v0="),
		CreatedAt: at, UpdatedAt: at.Add(time.Second), StartedAt: ptr(at.Add(time.Millisecond)), CompletedAt: ptr(at.Add(2 * time.Second)),
		MaxPages: 100, Progress: &api.ScanProgress{PagesDone: 37, PagesPlanned: 100}, Language: new(api.ScanLanguageDe),
		Competitors: []string{"https://rival.example.com/", "https://b.example/\"q\""},
	}
}

func TestAppendScanListMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	with := func(f func(s *api.Scan)) api.ScanList {
		s := fullScan()
		f(&s)
		return api.ScanList{Data: []api.Scan{s, fullScan()}, HasMore: true, NextCursor: ptr("MTc2Mzk.abc")}
	}
	cases := map[string]api.ScanList{
		"full":           with(func(*api.Scan) {}),
		"nulls":          {Data: []api.Scan{{ID: uuid.New(), CreatedAt: time.Unix(0, 0).UTC(), UpdatedAt: time.Unix(1, 1).UTC()}}},
		"empty page":     {Data: []api.Scan{}},
		"nil page":       {},
		"no aliases":     with(func(s *api.Scan) { s.BrandAliases = &[]string{} }),
		"nil aliases":    with(func(s *api.Scan) { s.BrandAliases = new([]string) }),
		"html":           with(func(s *api.Scan) { s.BrandName, s.Project = `<b>"Tom & Jerry"</b>`, ptr(`a\b`) }),
		"unicode":        with(func(s *api.Scan) { s.BrandName = "Weingut Sonnhalde – Müller\u2028\u2029😀" }),
		"control":        with(func(s *api.Scan) { s.BrandName = "a\x00b\bc\fd\ne\rf\tg\x1fh\x7f" }),
		"invalid utf-8":  with(func(s *api.Scan) { s.URL = "https://x/\xff\xfe" }),
		"zero score":     with(func(s *api.Scan) { s.OverallScore = ptr(0.0) }),
		"negative zero":  with(func(s *api.Scan) { s.OverallScore = ptr(math.Copysign(0, -1)) }),
		"full score":     with(func(s *api.Scan) { s.OverallScore = ptr(100.0) }),
		"third":          with(func(s *api.Scan) { s.OverallScore = ptr(100.0 / 3) }),
		"tiny score":     with(func(s *api.Scan) { s.OverallScore = ptr(1e-7) }),
		"huge score":     with(func(s *api.Scan) { s.OverallScore = ptr(-1e21) }),
		"NaN":            with(func(s *api.Scan) { s.OverallScore = ptr(math.NaN()) }),
		"negative int":   with(func(s *api.Scan) { s.TrustScore = ptr(math.MinInt) }),
		"no nanoseconds": with(func(s *api.Scan) { s.CreatedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }),
		"other zone":     with(func(s *api.Scan) { s.CreatedAt = s.CreatedAt.In(time.FixedZone("x", 5*3600+1800)) }),
		"local":          with(func(s *api.Scan) { s.UpdatedAt = s.UpdatedAt.Local() }),
		"year 10000":     with(func(s *api.Scan) { s.CompletedAt = ptr(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)) }),
		"year -1":        with(func(s *api.Scan) { s.StartedAt = ptr(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)) }),
		"no secret":      with(func(s *api.Scan) { s.WebhookSecret = nil }),
		"no progress":    with(func(s *api.Scan) { s.MaxPages, s.Progress = 1, nil }),
		"zero progress":  with(func(s *api.Scan) { s.Progress = &api.ScanProgress{} }),
		"last page":      {Data: []api.Scan{fullScan()}, NextCursor: nil},
	}
	for name, l := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			requireSameAsEncodingJSON(t, l)
		})
	}
}

// FuzzAppendScanList holds appendScanList to encoding/json's bytes for
// any strings, numbers and times.
func FuzzAppendScanList(f *testing.F) {
	f.Add("https://example.com/", "Example", "alias", "q4", 72.5, 80, int64(1763933169123456789), uint8(0))
	f.Add("https://x/<&>", "\u2028\xff\"\\", "", "\x00", 1e-7, -1, int64(-62135596800000000), uint8(0xff))
	f.Fuzz(func(t *testing.T, url, brand, alias, project string, score float64, n int, nanos int64, nulls uint8) {
		s := fullScan()
		s.URL, s.Domain, s.BrandName, s.BrandAliases, s.Project = url, brand+url, brand, &[]string{alias, brand}, &project
		s.OverallScore, s.SearchScore = &score, &n
		s.CreatedAt = time.Unix(0, nanos).UTC()
		s.UpdatedAt = time.Unix(nanos/1e9, 0).UTC()
		if nulls&1 != 0 {
			s.BrandAliases = nil
		}
		if nulls&2 != 0 {
			s.OverallScore, s.Project, s.ScheduleID = nil, nil, nil
		}
		if nulls&4 != 0 {
			s.StartedAt = ptr(s.CreatedAt.In(time.FixedZone("", int(nanos%(30*3600)))))
		}
		if nulls&8 != 0 {
			s.WebhookSecret = &alias
		}
		requireSameAsEncodingJSON(t, api.ScanList{Data: []api.Scan{s}, HasMore: nulls&16 != 0, NextCursor: &alias})
	})
}

func ptr[T any](v T) *T { return &v }

// TestFullScanSetsEveryField keeps the "full" case complete: a field added
// to api.Scan fails here until fullScan sets it, and then the comparison
// with encoding/json fails until appendScan writes it.
func TestFullScanSetsEveryField(t *testing.T) {
	t.Parallel()
	v := reflect.ValueOf(fullScan())
	for i := range v.NumField() {
		require.False(t, v.Field(i).IsZero(), "fullScan leaves %s unset: set it, and encode it in appendScan", v.Type().Field(i).Name)
	}
}

// TestScanResponseWritesWhatTheGeneratedResponseWrites: GET /scans/{id}
// answers with appendScan's bytes, the same body and content type as the
// generated response, in one write with its length.
func TestScanResponseWritesWhatTheGeneratedResponseWrites(t *testing.T) {
	t.Parallel()
	for name, s := range map[string]api.Scan{
		"full":  fullScan(),
		"nulls": {ID: uuid.New(), CreatedAt: time.Unix(0, 0).UTC(), UpdatedAt: time.Unix(1, 1).UTC()},
		"html":  func() api.Scan { s := fullScan(); s.BrandName = `<b>"Tom & Jerry"</b>` + "\u2028"; return s }(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, got := httptest.NewRecorder(), httptest.NewRecorder()
			require.NoError(t, api.GetScan200JSONResponse{Body: s}.VisitGetScanResponse(want))
			require.NoError(t, scanResponse(s).VisitGetScanResponse(got))
			require.Equal(t, want.Code, got.Code)
			require.Equal(t, want.Body.String(), got.Body.String())
			require.Equal(t, want.Header().Get("Content-Type"), got.Header().Get("Content-Type"))
			require.Equal(t, strconv.Itoa(got.Body.Len()), got.Header().Get("Content-Length"))
		})
	}
}
