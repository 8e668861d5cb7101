package cli

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// jsonLog is slog's JSON handler with a shorter path for the common record:
// one without groups or handler attributes, whose attributes are strings,
// integers, booleans and durations, and whose strings need no escaping.
// Such a record (every access-log line, one per request) is written here
// byte for byte as slog.JSONHandler writes it, in about a fifth of the
// instructions; any other record, and every handler derived with WithAttrs
// or WithGroup, is the JSON handler's. The writer must take concurrent
// writes of whole records (the log sink and *os.File do), since the JSON
// handler writes under a lock of its own.
//
// It writes slog's format itself, which project policy allows only where
// leaving it to the dependency costs more than 5 % of the get's ratio to
// pgbench: measured side by side (docs/PERFORMANCE.md, "Imitations
// removed"), slog's JSON handler cost the get 9 %.
type jsonLog struct {
	json *slog.JSONHandler
	w    io.Writer
}

func newJSONLog(w io.Writer, opts *slog.HandlerOptions) jsonLog {
	return jsonLog{json: slog.NewJSONHandler(w, opts), w: w}
}

func (h jsonLog) Enabled(ctx context.Context, l slog.Level) bool { return h.json.Enabled(ctx, l) }

func (h jsonLog) WithAttrs(attrs []slog.Attr) slog.Handler { return h.json.WithAttrs(attrs) }

func (h jsonLog) WithGroup(name string) slog.Handler { return h.json.WithGroup(name) }

var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func (h jsonLog) Handle(ctx context.Context, r slog.Record) error {
	if !plainRecord(r) {
		return h.json.Handle(ctx, r)
	}
	bp := lineBuffers.Get().(*[]byte) //nolint:forcetypeassert // the pool holds nothing else
	b := (*bp)[:0]
	b = append(b, '{')
	if !r.Time.IsZero() {
		b = append(b, `"time":"`...)
		b = r.Time.Round(0).AppendFormat(b, time.RFC3339Nano)
		b = append(b, `",`...)
	}
	b = append(b, `"level":"`...)
	b = append(b, r.Level.String()...)
	b = append(b, `","msg":"`...)
	b = append(b, r.Message...)
	b = append(b, '"')
	r.Attrs(func(a slog.Attr) bool {
		b = append(b, `,"`...)
		b = append(b, a.Key...)
		b = append(b, `":`...)
		switch v := a.Value; v.Kind() {
		case slog.KindString:
			b = append(append(append(b, '"'), v.String()...), '"')
		case slog.KindInt64:
			b = strconv.AppendInt(b, v.Int64(), 10)
		case slog.KindUint64:
			b = strconv.AppendUint(b, v.Uint64(), 10)
		case slog.KindBool:
			b = strconv.AppendBool(b, v.Bool())
		case slog.KindDuration:
			b = strconv.AppendInt(b, int64(v.Duration()), 10)
		}
		return true
	})
	b = append(b, '}', '\n')
	_, err := h.w.Write(b)
	*bp = b
	if cap(b) <= 16<<10 {
		lineBuffers.Put(bp)
	}
	return err
}

// plainRecord reports whether r takes the short path: its time within
// the years RFC 3339 writes (slog adds an error otherwise), its strings
// plain, and its attributes of the kinds written there, each with a key.
func plainRecord(r slog.Record) bool {
	if y := r.Time.Year(); !r.Time.IsZero() && (y < 0 || y >= 10000) {
		return false
	}
	if !plainString(r.Message) {
		return false
	}
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "" || !plainString(a.Key) {
			ok = false
			return false
		}
		switch a.Value.Kind() {
		case slog.KindString:
			ok = plainString(a.Value.String())
		case slog.KindInt64, slog.KindUint64, slog.KindBool, slog.KindDuration:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// plainString reports whether s goes into a JSON string as it is: printable
// ASCII without a quote or a backslash.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// plainByte marks the bytes of a plain string (a table: the access-log
// line's strings are checked byte by byte on every request).
var plainByte = func() (t [256]bool) {
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
