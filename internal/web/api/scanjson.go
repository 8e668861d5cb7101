package api

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
)

// appendScanList appends the JSON of a page of scans to b, byte for byte
// what encoding/json.Marshal writes for it (fields in the struct's order,
// HTML-safe escaping, floats and times formatted alike), without
// reflection: encoding a page of 20 scans with encoding/json cost about as
// much server time as reading it from PostgreSQL. FuzzAppendScanList holds
// the two to the same bytes. A value this code does not format itself (a
// string that needs escaping, a time outside years 0–9999, a float
// encoding/json writes with an exponent) is handed to encoding/json, so
// the output stays identical, errors included.
//
// It writes encoding/json's format itself, which project policy allows
// only where leaving it to the dependency costs more than 5 % of the
// get's ratio to pgbench: measured side by side (docs/PERFORMANCE.md,
// "Imitations removed"), encoding/json through the generated response
// cost the get 10 % and the list 20 %.
func appendScanList(b []byte, l api.ScanList) ([]byte, error) {
	var err error
	b = append(b, `{"data":`...)
	if l.Data == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range l.Data {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendScan(b, &l.Data[i]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"has_more":`...)
	b = strconv.AppendBool(b, l.HasMore)
	b = append(b, `,"next_cursor":`...)
	if b, err = appendStringPtr(b, l.NextCursor); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendScan writes the fields of api.Scan in the order they are declared,
// as encoding/json does.
func appendScan(b []byte, s *api.Scan) ([]byte, error) {
	var err error
	b = append(b, '{')
	if s.BrandAliases != nil { // omitempty: a nil pointer is left out
		b = append(b, `"brand_aliases":`...)
		if *s.BrandAliases == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, a := range *s.BrandAliases {
				if i > 0 {
					b = append(b, ',')
				}
				if b, err = appendString(b, a); err != nil {
					return nil, err
				}
			}
			b = append(b, ']')
		}
		b = append(b, ',')
	}
	b = append(b, `"brand_name":`...)
	if b, err = appendString(b, s.BrandName); err != nil {
		return nil, err
	}
	b = append(b, `,"callback_url":`...)
	if b, err = appendStringPtr(b, s.CallbackURL); err != nil {
		return nil, err
	}
	b = append(b, `,"competitors":`...)
	if s.Competitors == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range s.Competitors {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendString(b, c); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"completed_at":`...)
	if b, err = appendTimePtr(b, s.CompletedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"created_at":`...)
	if b, err = appendTime(b, s.CreatedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"domain":`...)
	if b, err = appendString(b, s.Domain); err != nil {
		return nil, err
	}
	b = append(b, `,"error_code":`...)
	if b, err = appendStringPtr(b, s.ErrorCode); err != nil {
		return nil, err
	}
	b = append(b, `,"error_message":`...)
	if b, err = appendStringPtr(b, s.ErrorMessage); err != nil {
		return nil, err
	}
	b = append(b, `,"id":`...)
	b = appendUUID(b, s.ID)
	if s.Language != nil { // omitempty
		b = append(b, `,"language":`...)
		if b, err = appendString(b, string(*s.Language)); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"max_pages":`...)
	b = strconv.AppendInt(b, int64(s.MaxPages), 10)
	b = append(b, `,"overall_grade":`...)
	if b, err = appendStringPtr(b, s.OverallGrade); err != nil {
		return nil, err
	}
	b = append(b, `,"overall_score":`...)
	if b, err = appendFloatPtr(b, s.OverallScore); err != nil {
		return nil, err
	}
	b = append(b, `,"progress":`...)
	if s.Progress == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"pages_done":`...)
		b = strconv.AppendInt(b, int64(s.Progress.PagesDone), 10)
		b = append(b, `,"pages_planned":`...)
		b = strconv.AppendInt(b, int64(s.Progress.PagesPlanned), 10)
		b = append(b, '}')
	}
	b = append(b, `,"project":`...)
	if b, err = appendStringPtr(b, s.Project); err != nil {
		return nil, err
	}
	b = append(b, `,"schedule_id":`...)
	if s.ScheduleID == nil {
		b = append(b, "null"...)
	} else {
		b = appendUUID(b, *s.ScheduleID)
	}
	b = append(b, `,"scoring_version":`...)
	if b, err = appendStringPtr(b, s.ScoringVersion); err != nil {
		return nil, err
	}
	b = append(b, `,"search_grade":`...)
	if b, err = appendStringPtr(b, s.SearchGrade); err != nil {
		return nil, err
	}
	b = append(b, `,"search_score":`...)
	b = appendIntPtr(b, s.SearchScore)
	b = append(b, `,"source":`...)
	if b, err = appendString(b, string(s.Source)); err != nil {
		return nil, err
	}
	b = append(b, `,"started_at":`...)
	if b, err = appendTimePtr(b, s.StartedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"status":`...)
	if b, err = appendString(b, string(s.Status)); err != nil {
		return nil, err
	}
	b = append(b, `,"tracked_url":`...)
	if b, err = appendStringPtr(b, s.TrackedURL); err != nil {
		return nil, err
	}
	b = append(b, `,"trust_grade":`...)
	if b, err = appendStringPtr(b, s.TrustGrade); err != nil {
		return nil, err
	}
	b = append(b, `,"trust_score":`...)
	b = appendIntPtr(b, s.TrustScore)
	b = append(b, `,"updated_at":`...)
	if b, err = appendTime(b, s.UpdatedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"url":`...)
	if b, err = appendString(b, s.URL); err != nil {
		return nil, err
	}
	b = append(b, `,"visibility_grade":`...)
	if b, err = appendStringPtr(b, s.VisibilityGrade); err != nil {
		return nil, err
	}
	b = append(b, `,"visibility_score":`...)
	b = appendIntPtr(b, s.VisibilityScore)
	if s.WebhookSecret != nil { // omitempty
		b = append(b, `,"webhook_secret":`...)
		if b, err = appendString(b, *s.WebhookSecret); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendString quotes s itself when every byte is printable ASCII that
// encoding/json leaves as it is; anything else (quotes, backslashes,
// control characters, <, >, &, non-ASCII) goes through encoding/json.
func appendString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendMarshaled(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

func appendStringPtr(b []byte, s *string) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	return appendString(b, *s)
}

// appendUUID writes the canonical text form that uuid.UUID's MarshalText
// gives encoding/json.
func appendUUID(b []byte, u uuid.UUID) []byte {
	var t [38]byte
	t[0], t[9], t[14], t[19], t[24], t[37] = '"', '-', '-', '-', '-', '"'
	hex.Encode(t[1:9], u[0:4])
	hex.Encode(t[10:14], u[4:6])
	hex.Encode(t[15:19], u[6:8])
	hex.Encode(t[20:24], u[8:10])
	hex.Encode(t[25:37], u[10:16])
	return append(b, t[:]...)
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

// appendFloatPtr writes a float64 in the shortest form that reads back to
// it, as encoding/json does for magnitudes in [1e-6, 1e21) and zero; other
// values (exponent form, NaN and infinities, which are an error) are left
// to encoding/json.
func appendFloatPtr(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	if abs := math.Abs(*f); abs != 0 && (abs < 1e-6 || abs >= 1e21) || math.IsNaN(*f) || math.IsInf(*f, 0) {
		return appendMarshaled(b, *f)
	}
	return strconv.AppendFloat(b, *f, 'f', -1, 64), nil
}

// appendTime writes a UTC time as time.Time's MarshalJSON does, RFC 3339
// with the nanoseconds it has; a time in another zone (the API sends UTC
// only) or in a year MarshalJSON refuses is left to it.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); t.Location() != time.UTC || y < 0 || y > 9999 {
		return appendMarshaled(b, t)
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

func appendTimePtr(b []byte, t *time.Time) ([]byte, error) {
	if t == nil {
		return append(b, "null"...), nil
	}
	return appendTime(b, *t)
}

func appendMarshaled(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}
