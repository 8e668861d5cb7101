package crawlerlog

import (
	"bytes"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The JSON log formats name the same facts differently. A key is mapped
// to the fact it carries, and the keys seen tell the format:
//
//   - Cloudflare Logpush (HTTP requests): ClientIP, ClientRequestHost,
//     ClientRequestURI, ClientRequestUserAgent, EdgeResponseStatus,
//     EdgeStartTimestamp (RFC 3339 or Unix nanoseconds).
//   - CloudFront real-time logs as JSON: c-ip, x-host-header or cs-host,
//     cs-uri-stem, cs-user-agent (URL-encoded), sc-status, timestamp (Unix
//     seconds with milliseconds).
//   - Fastly's common JSON logging fields: client_ip, host, url, status,
//     user_agent, timestamp, with the usual variants (request_host,
//     request_user_agent, response_status…).
//   - Vercel log drains: the request under "proxy" (clientIp, host, path,
//     statusCode, userAgent as an array or a string, timestamp in
//     milliseconds); lines without it are build or function output.
//
// encoding/json was measured at 70 MB/s on a Cloudflare line, jsontext
// (the streaming layer of the encoding/json/v2 prototype) at 270–410 MB/s:
// docs/PERFORMANCE.md, "Crawler log analysis".

// jsonFact is what a JSON key carries.
type jsonFact int

const (
	factNone jsonFact = iota
	factIP
	factHost
	factHostPreferred // CloudFront's x-host-header beats cs-host
	factURI
	factUA
	factStatus
	factTime
	factProxy  // Vercel's request object
	factVercel // a Vercel envelope key: the line is Vercel's even without proxy
)

type jsonKey struct {
	fact   jsonFact
	format string // the format the key proves, "" when shared
}

// jsonKeyOf maps a quoted key, as it appears in the line, to its fact.
func jsonKeyOf(k []byte) jsonKey {
	switch string(k) {
	case `"ClientIP"`:
		return jsonKey{factIP, FormatCloudflare}
	case `"ClientRequestHost"`:
		return jsonKey{factHost, FormatCloudflare}
	case `"ClientRequestURI"`:
		return jsonKey{factURI, FormatCloudflare}
	case `"ClientRequestUserAgent"`:
		return jsonKey{factUA, FormatCloudflare}
	case `"EdgeResponseStatus"`:
		return jsonKey{factStatus, FormatCloudflare}
	case `"EdgeStartTimestamp"`:
		return jsonKey{factTime, FormatCloudflare}
	case `"c-ip"`:
		return jsonKey{factIP, FormatCloudFrontRT}
	case `"x-host-header"`:
		return jsonKey{factHostPreferred, FormatCloudFrontRT}
	case `"cs-host"`:
		return jsonKey{factHost, FormatCloudFrontRT}
	case `"cs-uri-stem"`:
		return jsonKey{factURI, FormatCloudFrontRT}
	case `"cs-user-agent"`:
		return jsonKey{factUA, FormatCloudFrontRT}
	case `"sc-status"`:
		return jsonKey{factStatus, FormatCloudFrontRT}
	case `"client_ip"`, `"clientIp"`, `"remote_addr"`:
		return jsonKey{factIP, ""}
	case `"host"`, `"request_host"`, `"req_host"`:
		return jsonKey{factHost, ""}
	case `"url"`, `"request_url"`, `"request_uri"`, `"uri"`, `"path"`:
		return jsonKey{factURI, ""}
	case `"user_agent"`, `"request_user_agent"`, `"userAgent"`:
		return jsonKey{factUA, ""}
	case `"status"`, `"response_status"`, `"status_code"`, `"statusCode"`:
		return jsonKey{factStatus, ""}
	case `"timestamp"`, `"time"`, `"time_start"`, `"start_time"`:
		return jsonKey{factTime, ""}
	case `"proxy"`:
		return jsonKey{factProxy, FormatVercel}
	case `"deploymentId"`, `"projectId"`:
		return jsonKey{factVercel, FormatVercel}
	}
	return jsonKey{}
}

// jsonLine collects the raw values of one line, copied into the
// analyzer's scratch buffers.
type jsonLine struct {
	format                              string
	ip, host, uri, ua, status, unixTime []byte
	hostPreferred, proxy, vercel        bool
}

// complete reports that every fact was found; CloudFront's cs-host (the
// distribution's name) does not complete the host while x-host-header may
// follow.
func (j *jsonLine) complete() bool {
	return j.ip != nil && j.host != nil && j.uri != nil && j.ua != nil && j.status != nil && j.unixTime != nil &&
		(j.hostPreferred || j.format != FormatCloudFrontRT)
}

// parseJSON reads a JSON log line. The decoder stops once every fact is
// found, so the rest of a long line is not read (nor validated).
func (a *analyzer) parseJSON(line []byte, rec *record) string {
	a.jsonBuf = *bytes.NewBuffer(line)
	d := &a.jsonDec
	d.Reset(&a.jsonBuf, a.jsonOpts...)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return ReasonBadJSON
	}
	var j jsonLine
	if !a.readJSONObject(d, &j, false) {
		return ReasonBadJSON
	}
	switch {
	case j.vercel && !j.proxy:
		return ReasonNotARequest
	case j.ip == nil && j.ua == nil && j.status == nil:
		return ReasonUnknownJSON
	}
	rec.format = j.format
	if rec.format == "" {
		rec.format = FormatFastly
	}
	if j.unixTime == nil {
		return ReasonBadTimestamp
	}
	t, ok := a.jsonTime(j.unixTime)
	if !ok {
		return ReasonBadTimestamp
	}
	rec.unix = t
	ip, ok := parseIP(a.jsonString(j.ip, &a.jsIP))
	if !ok {
		return ReasonBadClientIP
	}
	rec.ip = ip
	status, ok := jsonStatus(a.jsonString(j.status, &a.jsStatus))
	if !ok {
		return ReasonBadStatus
	}
	rec.status = status
	uri := a.jsonString(j.uri, &a.jsURI)
	if len(uri) == 0 {
		return ReasonBadRequest
	}
	path, ok := targetPath(uri)
	if !ok {
		return ReasonBadRequest
	}
	rec.path = path
	rec.host = hostOnly(a.jsonString(j.host, &a.jsHost))
	rec.ua = a.jsonString(j.ua, &a.jsUA)
	rec.uaEncoded = rec.format == FormatCloudFrontRT
	return ""
}

// readJSONObject reads the members of an object whose '{' was read, into
// j; inProxy is set for Vercel's request object, whose facts win over the
// envelope's.
func (a *analyzer) readJSONObject(d *jsontext.Decoder, j *jsonLine, inProxy bool) bool {
	for {
		switch d.PeekKind() {
		case '}':
			_, err := d.ReadToken()
			return err == nil
		case '"':
		default:
			return false
		}
		k, err := d.ReadValue()
		if err != nil {
			return false
		}
		key := jsonKeyOf(k)
		if key.format != "" && j.format == "" || key.format == FormatVercel {
			j.format = key.format
		}
		var dst *[]byte
		switch key.fact {
		case factIP:
			dst = &j.ip
		case factHost:
			if !j.hostPreferred {
				dst = &j.host
			}
		case factHostPreferred:
			dst, j.hostPreferred = &j.host, true
		case factURI:
			dst = &j.uri
		case factUA:
			if d.PeekKind() == '[' { // Vercel's userAgent array
				if !a.firstString(d, j) {
					return false
				}
				continue
			}
			dst = &j.ua
		case factStatus:
			dst = &j.status
		case factTime:
			dst = &j.unixTime
		case factProxy:
			if d.PeekKind() == '{' {
				if _, err := d.ReadToken(); err != nil || !a.readJSONObject(d, j, true) {
					return false
				}
				j.proxy = true
				if j.complete() {
					return true
				}
				continue
			}
		case factVercel:
			j.vercel = true
		}
		if dst == nil || *dst != nil && !inProxy && j.proxy {
			if d.SkipValue() != nil {
				return false
			}
			continue
		}
		v, err := d.ReadValue()
		if err != nil {
			return false
		}
		// A value is only guaranteed until the decoder's next read.
		slot := &a.jsRaw[key.fact]
		if key.fact == factHostPreferred {
			slot = &a.jsRaw[factHost]
		}
		*slot = append((*slot)[:0], v...)
		*dst = *slot
		if !inProxy && j.complete() && j.format != FormatVercel {
			return true
		}
	}
}

// firstString reads an array, keeping its first string as the user agent.
func (a *analyzer) firstString(d *jsontext.Decoder, j *jsonLine) bool {
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	for d.PeekKind() != ']' {
		if d.PeekKind() == '"' && j.ua == nil {
			v, err := d.ReadValue()
			if err != nil {
				return false
			}
			a.jsRaw[factUA] = append(a.jsRaw[factUA][:0], v...)
			j.ua = a.jsRaw[factUA]
			continue
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	_, err := d.ReadToken()
	return err == nil
}

// jsonString returns a raw JSON value as text: a string unquoted (into
// scratch when it has escapes), a number or literal as written.
func (a *analyzer) jsonString(v []byte, scratch *[]byte) []byte {
	if len(v) < 2 || v[0] != '"' {
		if string(v) == "null" {
			return nil
		}
		return v
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1]
	}
	out, err := jsontext.AppendUnquote((*scratch)[:0], v)
	if err != nil {
		return nil
	}
	*scratch = out
	return out
}

// jsonStatus reads a status written as a number or a string.
func jsonStatus(b []byte) (int, bool) {
	if len(b) == 1 && b[0] == '0' {
		return 0, true
	}
	return parseStatus(b)
}

// jsonTime reads a request time: Unix seconds, milliseconds, microseconds
// or nanoseconds (told apart by size), as a number or a string, or a date
// and time text (RFC 3339, with a "+0000" zone, with a space, or Common
// Log Format). The last text is remembered, as lines of a second share it.
func (a *analyzer) jsonTime(raw []byte) (int64, bool) {
	if bytes.Equal(raw, a.lastJSONTime) && a.lastJSONOK {
		return a.lastJSONUnix, true
	}
	t, ok := parseJSONTime(a.jsonString(raw, &a.jsTime))
	a.lastJSONTime = append(a.lastJSONTime[:0], raw...)
	a.lastJSONUnix, a.lastJSONOK = t, ok
	return t, ok
}

func parseJSONTime(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	if n, ok := unixNumber(b); ok {
		return scaleUnix(n)
	}
	if b[0] >= '0' && b[0] <= '9' && bytes.IndexByte(b, '-') < 0 && bytes.IndexByte(b, '/') < 0 {
		// A number with an exponent.
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || f < 0 || f > 1e19 {
			return 0, false
		}
		return scaleUnix(int64(f))
	}
	if b[0] == '[' && b[len(b)-1] == ']' {
		b = b[1 : len(b)-1]
	}
	if len(b) > 2 && b[2] == '/' {
		return parseCLFTime(b)
	}
	s := string(b)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return checkedUnix(t.Unix())
		}
	}
	return 0, false
}

// unixNumber reads digits with an optional fraction ("1786356000.123",
// "1786269600000000000"), the fraction dropped.
func unixNumber(b []byte) (int64, bool) {
	var n int64
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9' && i < 19:
			n = n*10 + int64(c-'0')
		case c == '.' && i > 0:
			_, ok := digits(b[i+1:])
			return n, ok
		default:
			return 0, false
		}
	}
	return n, len(b) > 0
}

// scaleUnix reads a Unix time of unknown unit by its size: seconds until
// the year 5138, then milliseconds, microseconds, nanoseconds.
func scaleUnix(n int64) (int64, bool) {
	switch {
	case n > 1e17:
		n /= 1e9
	case n > 1e14:
		n /= 1e6
	case n > 1e11:
		n /= 1e3
	}
	return checkedUnix(n)
}

func checkedUnix(n int64) (int64, bool) {
	lo, _ := unixOf(minYear, 1, 1, 0, 0, 0, 0)
	hi, _ := unixOf(maxYear, 12, 31, 23, 59, 59, 0)
	return n, n >= lo && n <= hi
}
