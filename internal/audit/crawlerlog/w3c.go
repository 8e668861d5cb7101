package crawlerlog

import (
	"bytes"
	"strings"
)

// w3cFields maps the fields of a W3C extended log (a #Fields: directive)
// to the columns a request needs; -1 where absent.
type w3cFields struct {
	format                            string
	date, time, ip, host, uri, status int
	ua, n                             int
	// hostIsEdge: host is CloudFront's cs(Host), the distribution's name.
	hostIsEdge bool
}

// cloudFrontFields is the column order of CloudFront standard logs, used
// for tab-separated lines met before any #Fields directive (a file whose
// header was cut off, or lines appended from another file).
const cloudFrontFields = "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for"

// parseW3CFields reads the field names of a #Fields: directive.
func parseW3CFields(spec string) *w3cFields {
	f := &w3cFields{format: FormatW3C, date: -1, time: -1, ip: -1, host: -1, uri: -1, status: -1, ua: -1}
	names := strings.Fields(spec)
	f.n = len(names)
	hostRank := 0
	for i, name := range names {
		switch strings.ToLower(name) {
		case "date":
			f.date = i
		case "time":
			f.time = i
		case "c-ip":
			f.ip = i
		case "x-host-header":
			f.host, hostRank = i, 3
		case "cs-host", "cs(host)":
			if hostRank < 2 {
				f.host, hostRank = i, 2
			}
		case "cs-uri-stem":
			f.uri = i
		case "sc-status":
			f.status = i
		case "cs(user-agent)", "cs-user-agent":
			f.ua = i
		case "x-edge-location":
			f.format = FormatCloudFront
		}
	}
	if f.format == FormatCloudFront && hostRank == 2 {
		// cs(Host) of CloudFront names the distribution
		// (d111111abcdef8.cloudfront.net), not the site.
		f.hostIsEdge = true
	}
	if f.date < 0 || f.time < 0 || f.ip < 0 || f.uri < 0 || f.status < 0 {
		return nil
	}
	return f
}

// w3cDirective reads a line starting with '#': directive reports a W3C
// directive (not counted as a log line), fields the column map of a
// #Fields directive (nil for the others, and for a #Fields line without
// the columns a request needs).
func w3cDirective(line []byte) (directive, isFields bool, fields *w3cFields) {
	const f = "#Fields:"
	if len(line) >= len(f) && strings.EqualFold(string(line[:len(f)]), f) {
		return true, true, parseW3CFields(string(line[len(f):]))
	}
	for _, d := range []string{"#Version:", "#Software:", "#Date:", "#Start-Date:", "#End-Date:", "#Remark:"} {
		if len(line) >= len(d) && strings.EqualFold(string(line[:len(d)]), d) {
			return true, false, nil
		}
	}
	return false, false, nil
}

// maxW3CFields bounds the columns read; CloudFront logs have 33.
const maxW3CFields = 64

// parseW3C reads a line of a W3C extended log: tab-separated (CloudFront)
// or space-separated (IIS), "-" for an empty field, the user agent
// URL-encoded (CloudFront, sometimes twice) or with '+' for spaces (IIS).
func (a *analyzer) parseW3C(line []byte, rec *record) string {
	f := a.w3c
	sep := byte(' ')
	if bytes.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	}
	if f == nil {
		if sep != '\t' {
			return ReasonUnrecognized
		}
		f = a.cloudFront
	}
	var cols [maxW3CFields][]byte
	n := 0
	for rest := line; n < maxW3CFields; {
		i := bytes.IndexByte(rest, sep)
		if i < 0 {
			cols[n] = rest
			n++
			break
		}
		cols[n] = rest[:i]
		n++
		rest = rest[i+1:]
	}
	if n < f.n && n <= max(f.date, f.time, f.ip, f.uri, f.status) {
		return ReasonUnrecognized
	}
	date, clock := cols[f.date], cols[f.time]
	if len(date) != 10 || date[4] != '-' || date[7] != '-' {
		return ReasonUnrecognized
	}
	rec.format = f.format
	t, ok := w3cTime(date, clock)
	if !ok {
		return ReasonBadTimestamp
	}
	rec.unix = t
	ip, ok := parseIP(cols[f.ip])
	if !ok {
		return ReasonBadClientIP
	}
	rec.ip = ip
	status, ok := parseStatus(cols[f.status])
	if !ok {
		return ReasonBadStatus
	}
	rec.status = status
	path, ok := targetPath(cols[f.uri])
	if !ok {
		return ReasonBadRequest
	}
	rec.path = path
	rec.host = nil
	if f.host >= 0 && f.host < n && !f.hostIsEdge {
		rec.host = hostOnly(cols[f.host])
	}
	rec.ua, rec.uaEncoded = nil, true
	if f.ua >= 0 && f.ua < n && (len(cols[f.ua]) != 1 || cols[f.ua][0] != '-') {
		rec.ua = cols[f.ua]
	}
	return ""
}

// w3cTime reads the UTC date and time columns ("2026-08-01", "10:00:00").
func w3cTime(date, clock []byte) (int64, bool) {
	if len(clock) < 8 || clock[2] != ':' || clock[5] != ':' {
		return 0, false
	}
	y, ok1 := digits(date[0:4])
	m, ok2 := digits(date[5:7])
	d, ok3 := digits(date[8:10])
	h, ok4 := digits(clock[0:2])
	mi, ok5 := digits(clock[3:5])
	s, ok6 := digits(clock[6:8])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return 0, false
	}
	return unixOf(y, m, d, h, mi, s, 0)
}

// decodeUA undoes the URL encoding of W3C user agents into scratch: '+'
// is a space and %XX a byte, applied twice when the first pass leaves
// escapes (CloudFront encodes some characters twice).
func (a *analyzer) decodeUA(ua []byte) []byte {
	if bytes.IndexByte(ua, '%') < 0 && bytes.IndexByte(ua, '+') < 0 {
		return ua
	}
	a.uaBuf = percentDecode(a.uaBuf[:0], ua)
	if bytes.IndexByte(a.uaBuf, '%') >= 0 {
		a.uaBuf2 = percentDecode(a.uaBuf2[:0], a.uaBuf)
		return a.uaBuf2
	}
	return a.uaBuf
}

func percentDecode(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			dst = append(dst, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			dst = append(dst, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
