package crawlerlog

import (
	"bytes"
	"net/netip"
)

// record is one parsed request. Its byte slices point into the line or
// into the analyzer's scratch buffers: valid until the next line.
type record struct {
	format string
	ip     netip.Addr
	host   []byte // nil when the format has no host field or it is "-"
	path   []byte // query and fragment removed
	ua     []byte
	// uaEncoded: ua is URL-encoded (W3C logs, CloudFront real-time logs).
	uaEncoded bool
	status    int
	unix      int64 // seconds
}

// field is one field of a Common Log Format line.
type field struct {
	s, e int
	kind byte // 0 bare, '"' quoted, '[' bracketed
}

// maxFields bounds the fields read from a line; the formats need at most
// ten (vhost, five, request, status, bytes, referer, agent) and the
// trailing ones (request time, X-Forwarded-For…) are ignored.
const maxFields = 12

// splitFields splits a Common Log Format line into space-separated fields,
// where "…" (with backslash escapes, as Apache and nginx write them) and
// […] are single fields. ok is false for an unterminated quote or bracket.
func splitFields(line []byte, out *[maxFields]field) (n int, ok bool) {
	i := 0
	for n < maxFields {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		switch line[i] {
		case '"':
			j := i + 1
			for {
				k := bytes.IndexByte(line[j:], '"')
				if k < 0 {
					return n, false
				}
				q := j + k
				if escaped(line, q) {
					j = q + 1
					continue
				}
				out[n] = field{i + 1, q, '"'}
				i = q + 1
				break
			}
		case '[':
			k := bytes.IndexByte(line[i:], ']')
			if k < 0 {
				return n, false
			}
			out[n] = field{i + 1, i + k, '['}
			i += k + 1
		default:
			// Bare fields are short (an address, "-", a status): a loop
			// beats IndexByte's setup.
			j := i
			for j < len(line) && line[j] != ' ' {
				j++
			}
			out[n] = field{i, j, 0}
			i = j
		}
		n++
	}
	return n, true
}

// escaped reports whether the quote at q is preceded by an odd number of
// backslashes.
func escaped(line []byte, q int) bool {
	b := 0
	for q-b-1 >= 0 && line[q-b-1] == '\\' {
		b++
	}
	return b%2 == 1
}

// parseText reads the Common Log Format family:
//
//	common          ip ident user [time] "request" status bytes
//	combined        … "referer" "user agent"
//	vhost_common    host ip ident user [time] "request" status bytes
//	vhost_combined  … "referer" "user agent"
//
// with any fields after the user agent ignored (nginx's request time or
// "$http_x_forwarded_for", never trusted). The vhost variants are Apache's
// vhost_combined (host:port) and nginx formats that log $host first.
func (a *analyzer) parseText(line []byte, rec *record) string {
	var fields [maxFields]field
	n, ok := splitFields(line, &fields)
	if !ok || n < 7 {
		return ReasonUnrecognized
	}
	f := fields[:n]
	// The bracketed time follows three fields, or four with a vhost first.
	b := 3
	if f[b].kind != '[' {
		b = 4
	}
	pre, post := f[:b], f[b:] // [vhost] ip ident user | [time] "request" status bytes ["referer" "agent"] …
	if len(post) < 4 || post[0].kind != '[' || post[1].kind != '"' || post[2].kind != 0 || post[3].kind != 0 {
		return ReasonUnrecognized
	}
	for _, p := range pre {
		if p.kind != 0 {
			return ReasonUnrecognized
		}
	}
	combined := len(post) >= 6 && post[4].kind == '"' && post[5].kind == '"'
	if !combined && len(post) > 4 {
		return ReasonUnrecognized
	}
	switch {
	case b == 4 && combined:
		rec.format = FormatVhostCombined
	case b == 4:
		rec.format = FormatVhostCommon
	case combined:
		rec.format = FormatCombined
	default:
		rec.format = FormatCommon
	}
	rec.host = nil
	if b == 4 {
		rec.host = hostOnly(line[pre[0].s:pre[0].e])
	}
	ipField := pre[len(pre)-3]
	ip, ok := parseIP(line[ipField.s:ipField.e])
	if !ok {
		return ReasonBadClientIP
	}
	rec.ip = ip
	t, ok := a.clfTime(line[post[0].s:post[0].e])
	if !ok {
		return ReasonBadTimestamp
	}
	rec.unix = t
	status, ok := parseStatus(line[post[2].s:post[2].e])
	if !ok {
		return ReasonBadStatus
	}
	rec.status = status
	path, ok := requestPath(line[post[1].s:post[1].e])
	if !ok {
		return ReasonBadRequest
	}
	rec.path = path
	rec.ua, rec.uaEncoded = nil, false
	if combined {
		rec.ua = line[post[5].s:post[5].e]
	}
	return ""
}

// hostOnly removes a port from a host field; "-" and "" become nil.
func hostOnly(h []byte) []byte {
	if len(h) == 0 || len(h) == 1 && h[0] == '-' {
		return nil
	}
	if h[0] == '[' { // [v6]:port
		if i := bytes.IndexByte(h, ']'); i > 0 {
			return h[1:i]
		}
		return h
	}
	if i := bytes.IndexByte(h, ':'); i >= 0 && bytes.IndexByte(h[i+1:], ':') < 0 {
		return h[:i]
	}
	return h
}

// parseIP reads a client address: IPv4, IPv6 (with brackets or a zone),
// IPv4-mapped IPv6 (unmapped), or any of these with a port.
func parseIP(b []byte) (netip.Addr, bool) {
	if len(b) == 0 || len(b) > 64 {
		return netip.Addr{}, false
	}
	if ip, ok := parseIPv4(b); ok {
		return ip, true
	}
	ip, err := netip.ParseAddr(string(b))
	if err != nil {
		ap, perr := netip.ParseAddrPort(string(b))
		if perr != nil {
			if b[0] == '[' && b[len(b)-1] == ']' {
				return parseIP(b[1 : len(b)-1])
			}
			return netip.Addr{}, false
		}
		ip = ap.Addr()
	}
	return ip.Unmap().WithZone(""), true
}

// parseIPv4 reads a dotted quad as netip does (no leading zeros), without
// the string netip needs: one allocation per line was a tenth of the time
// of a combined log. Anything else is left to netip.
func parseIPv4(b []byte) (netip.Addr, bool) {
	var ip [4]byte
	part, n, nd := 0, 0, 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			if nd > 0 && n == 0 {
				return netip.Addr{}, false
			}
			n, nd = n*10+int(c-'0'), nd+1
			if n > 255 {
				return netip.Addr{}, false
			}
		case c == '.' && nd > 0 && part < 3:
			ip[part] = byte(n)
			part, n, nd = part+1, 0, 0
		default:
			return netip.Addr{}, false
		}
	}
	if part != 3 || nd == 0 {
		return netip.Addr{}, false
	}
	ip[3] = byte(n)
	return netip.AddrFrom4(ip), true
}

// parseStatus reads a three-digit status; CloudFront's 000 (the client
// went away first) is status 0.
func parseStatus(b []byte) (int, bool) {
	if len(b) != 3 {
		return 0, false
	}
	s := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		s = s*10 + int(c-'0')
	}
	if s != 0 && (s < 100 || s > 599) {
		return 0, false
	}
	return s, true
}

// requestPath takes the path of a request line ("GET /a?b HTTP/1.1").
func requestPath(req []byte) ([]byte, bool) {
	sp := bytes.IndexByte(req, ' ')
	if sp <= 0 {
		return nil, false
	}
	for _, c := range req[:sp] {
		if c < 'A' || c > 'Z' {
			return nil, false
		}
	}
	target := req[sp+1:]
	if end := bytes.LastIndexByte(target, ' '); end >= 0 {
		target = target[:end]
	}
	return targetPath(target)
}

// targetPath reduces a request target to its path: origin form as is,
// absolute form without scheme and authority, query and fragment removed.
func targetPath(t []byte) ([]byte, bool) {
	if len(t) == 0 || bytes.IndexByte(t, ' ') >= 0 {
		return nil, false
	}
	if t[0] != '/' {
		if i := bytes.Index(t, []byte("://")); i > 0 && i < 10 {
			rest := t[i+3:]
			t = []byte("/")
			for j, c := range rest {
				if c == '/' || c == '?' || c == '#' {
					t = rest[j:]
					break
				}
			}
		}
	}
	if i := bytes.IndexByte(t, '?'); i >= 0 {
		t = t[:i]
	}
	if i := bytes.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	if len(t) == 0 {
		t = []byte("/")
	}
	return t, true
}

var months = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// clfTime reads "10/Oct/2000:13:55:36 -0700" (or with fractions of a
// second, "…:36.123 -0700") as Unix seconds. Lines of one
// second share the text, so the last one is remembered.
func (a *analyzer) clfTime(b []byte) (int64, bool) {
	if bytes.Equal(b, a.lastCLF) && a.lastCLFOK {
		return a.lastCLFUnix, true
	}
	t, ok := parseCLFTime(b)
	a.lastCLF = append(a.lastCLF[:0], b...)
	a.lastCLFUnix, a.lastCLFOK = t, ok
	return t, ok
}

func parseCLFTime(b []byte) (int64, bool) {
	// 0         1         2
	// 012345678901234567890123456
	// 10/Oct/2000:13:55:36 -0700
	if len(b) < 20 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' {
		return 0, false
	}
	day, ok1 := digits(b[0:2])
	year, ok2 := digits(b[7:11])
	hour, ok3 := digits(b[12:14])
	minute, ok4 := digits(b[15:17])
	sec, ok5 := digits(b[18:20])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return 0, false
	}
	month := -1
	for i, m := range months {
		if string(b[3:6]) == m {
			month = i + 1
			break
		}
	}
	if month < 0 {
		return 0, false
	}
	offset := 0
	z := b[20:]
	// Apache logs with %{msec_frac}t (or usec) add fractions of a second.
	if len(z) > 0 && z[0] == '.' {
		n := 1
		for n < len(z) && z[n] >= '0' && z[n] <= '9' {
			n++
		}
		if n == 1 || n > 10 {
			return 0, false
		}
		z = z[n:]
	}
	if len(z) > 0 {
		if len(z) != 6 || z[0] != ' ' || z[1] != '+' && z[1] != '-' {
			return 0, false
		}
		zh, ok1 := digits(z[2:4])
		zm, ok2 := digits(z[4:6])
		if !ok1 || !ok2 || zh > 23 || zm > 59 {
			return 0, false
		}
		offset = zh*3600 + zm*60
		if z[1] == '-' {
			offset = -offset
		}
	}
	return unixOf(year, month, day, hour, minute, sec, offset)
}

func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// The years a request time may have: a log line dated otherwise is junk.
const (
	minYear = 1990
	maxYear = 2199
)

// unixOf converts a civil time with a zone offset in seconds to Unix
// seconds, checking every part's range.
func unixOf(year, month, day, hour, minute, sec, offset int) (int64, bool) {
	if year < minYear || year > maxYear || month < 1 || month > 12 || day < 1 ||
		day > daysIn(year, month) || hour > 23 || minute > 59 || sec > 60 {
		return 0, false
	}
	return daysFromCivil(year, month, day)*86400 + int64(hour*3600+minute*60+sec-offset), true
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil counts the days from 1970-01-01 to a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097 + doe - 719468)
}
