package cli

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every record comes out of jsonLog exactly as slog's JSON handler writes
// it, whichever path it takes: access-log lines, strings that need
// escaping, other kinds, odd times, and handlers with attributes or groups.
func TestJSONLogWritesWhatSlogWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	strs := []string{
		"", "request", "GET", "/api/v1/scans/0b9e2f4c-7a1d-4e5f-9c3b-2d8a6f1e0c47",
		`quote " inside`, `back\slash`, "tab\there", "nul\x00", "line\nbreak", "cr\rlf", "crlf\r\n", "caf\u00e9", "\xff\xfe invalid",
		"<html>&amp;", "\u2028", "DEL\x7f", strings.Repeat("x", 3000),
	}
	values := []func() slog.Value{
		func() slog.Value { return slog.StringValue(strs[rng.IntN(len(strs))]) },
		func() slog.Value { return slog.Int64Value(rng.Int64() - rng.Int64()) },
		func() slog.Value { return slog.Uint64Value(rng.Uint64()) },
		func() slog.Value { return slog.BoolValue(rng.IntN(2) == 0) },
		func() slog.Value { return slog.DurationValue(time.Duration(rng.Int64N(1e12))) },
		func() slog.Value { return slog.Float64Value(rng.Float64() * 1e6) },
		func() slog.Value { return slog.TimeValue(time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).UTC()) },
		func() slog.Value { return slog.AnyValue(map[string]int{"a": 1}) },
		func() slog.Value { return slog.GroupValue(slog.String("inner", "v")) },
		func() slog.Value { return slog.AnyValue(nil) },
	}
	times := []time.Time{
		time.Date(2026, 11, 24, 6, 22, 42, 53305519, time.UTC),
		time.Date(2026, 11, 24, 6, 22, 42, 0, time.UTC),
		time.Date(2026, 11, 24, 6, 22, 42, 500000000, time.FixedZone("", 5*3600+1800)),
		time.Now(), // with a monotonic reading
		{},
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	levels := []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError, slog.LevelInfo + 2}
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	for i := range 5000 {
		r := slog.NewRecord(times[rng.IntN(len(times))], levels[rng.IntN(len(levels))], strs[rng.IntN(len(strs))], 0)
		for range rng.IntN(8) {
			key := strs[rng.IntN(len(strs))]
			if rng.IntN(3) > 0 {
				key = []string{"request_id", "method", "path", "status", "duration"}[rng.IntN(5)]
			}
			r.AddAttrs(slog.Attr{Key: key, Value: values[rng.IntN(len(values))]()})
		}
		var want, got bytes.Buffer
		var wantH, gotH slog.Handler = slog.NewJSONHandler(&want, opts), newJSONLog(&got, opts)
		switch i % 4 {
		case 1:
			wantH, gotH = wantH.WithAttrs([]slog.Attr{slog.String("role", "api")}), gotH.WithAttrs([]slog.Attr{slog.String("role", "api")})
		case 2:
			wantH, gotH = wantH.WithGroup("g"), gotH.WithGroup("g")
		}
		require.NoError(t, wantH.Handle(context.Background(), r.Clone()))
		require.NoError(t, gotH.Handle(context.Background(), r.Clone()))
		require.Equal(t, want.String(), got.String(), "record %d", i)
	}
}

// The access-log line, the record the short path is for, takes it.
func TestJSONLogAccessLineIsPlain(t *testing.T) {
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("request_id", "6119de82-e6bf-4e3e-bb2e-848f65c007cc"), slog.String("method", "GET"),
		slog.String("path", "/api/v1/scans/319e16db-b335-4c40-9379-5f377b915773"), slog.Int("status", 200),
		slog.Duration("duration", 1234567))
	require.True(t, plainRecord(r))
	r.AddAttrs(slog.String("path", "/caf\u00e9"))
	require.False(t, plainRecord(r))
}
