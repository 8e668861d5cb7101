package crawl

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"path"
	"sort"
	"strings"
)

// Canonicalize returns the form of raw (resolved against base when it is
// relative) that the inventory deduplicates on: scheme and host lower
// case, a trailing dot and the default port dropped, no user info, no
// fragment, dot segments removed, an empty path as "/", tracking
// parameters (utm_*, gclid, fbclid, …) removed and the remaining query
// parameters sorted. Only absolute http(s) URLs with a host are accepted.
func Canonicalize(base *url.URL, raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("empty URL")
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if base == nil {
		if !ref.IsAbs() {
			return nil, errors.New("relative URL without a base")
		}
		base = &url.URL{}
	}
	// ResolveReference also removes dot segments from an absolute ref.
	u := base.ResolveReference(ref)
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.New("not an http(s) URL")
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, errors.New("URL without a host")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return nil, errors.New("URL without a host")
	}
	// An empty label ("..", ".a") names no host; "a." is the same host as "a".
	if strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
		return nil, errors.New("host name with an empty label")
	}
	if strings.Contains(host, ":") {
		if _, err := netip.ParseAddr(host); err != nil {
			return nil, fmt.Errorf("invalid IPv6 host: %w", err)
		}
	}
	port := u.Port()
	if defaultPort := (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80"); port != "" && !defaultPort {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	u.Host = host
	u.User = nil
	u.Fragment, u.RawFragment = "", ""
	u.ForceQuery = false
	if u.Path == "" {
		u.Path, u.RawPath = "/", ""
	}
	u.RawQuery = cleanQuery(u.RawQuery)
	return u, nil
}

// trackingParams are query parameters that say how a visitor arrived, not
// which page they see; utm_* is matched by prefix.
var trackingParams = map[string]bool{
	"gclid": true, "gclsrc": true, "dclid": true, "gbraid": true, "wbraid": true, "fbclid": true,
	"msclkid": true, "yclid": true, "twclid": true, "ttclid": true, "li_fat_id": true, "igshid": true,
	"mc_cid": true, "mc_eid": true, "_ga": true, "_gl": true, "_hsenc": true, "_hsmi": true,
	"mkt_tok": true, "ref": true, "ref_src": true, "srsltid": true, "s_kwcid": true, "epik": true,
}

func tracking(key string) bool {
	if k, err := url.QueryUnescape(key); err == nil {
		key = k
	}
	key = strings.ToLower(key)
	return strings.HasPrefix(key, "utm_") || trackingParams[key]
}

// cleanQuery drops empty and tracking parameters and sorts the rest,
// each kept as written (its escaping is the site's).
func cleanQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	kept := parts[:0]
	for _, p := range parts {
		// A space is no URL character: written escaped, the canonical
		// form reads back as itself.
		p = strings.ReplaceAll(p, " ", "%20")
		key, _, _ := strings.Cut(p, "=")
		if strings.ReplaceAll(key, "%20", "") == "" || tracking(key) {
			continue
		}
		kept = append(kept, p)
	}
	sort.Strings(kept)
	return strings.Join(kept, "&")
}

// scope is the site a crawl stays on: one scheme and host (with its port
// when not the default), and the www/apex twin of that host when the
// target redirected from one to the other. URLs on the twin, and http://
// URLs of the host, are rewritten to the site's own scheme and host.
type scope struct {
	scheme string
	host   string
	twin   string // "" unless the target's redirect merged the two
}

// own rewrites u (canonical) onto the site and reports whether it is on
// it.
func (s scope) own(u *url.URL) bool {
	if u.Host != s.host && (s.twin == "" || u.Host != s.twin) {
		return false
	}
	u.Scheme, u.Host = s.scheme, s.host
	return true
}

// twinOf reports whether a and b (canonical hosts, ports included) are
// the www and apex names of one site.
func twinOf(a, b string) bool {
	return a != b && (a == "www."+b || b == "www."+a)
}

// assetExts are file types that are no pages: links to them are not
// crawled.
var assetExts = map[string]bool{
	".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".webp": true, ".avif": true, ".svg": true,
	".ico": true, ".bmp": true, ".tif": true, ".tiff": true, ".css": true, ".js": true, ".mjs": true,
	".map": true, ".json": true, ".xml": true, ".rss": true, ".atom": true, ".txt": true, ".csv": true,
	".pdf": true, ".doc": true, ".docx": true, ".xls": true, ".xlsx": true, ".ppt": true, ".pptx": true,
	".zip": true, ".gz": true, ".tgz": true, ".tar": true, ".rar": true, ".7z": true, ".exe": true,
	".dmg": true, ".msi": true, ".apk": true, ".iso": true, ".mp3": true, ".wav": true, ".ogg": true,
	".mp4": true, ".m4v": true, ".mov": true, ".avi": true, ".webm": true, ".mkv": true,
	".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true,
}

// maxURLLength is the longest URL kept; longer ones are almost always
// generated (session ids, state blobs).
const maxURLLength = 2048

// refusal says why a URL on the site is not taken into the inventory
// ("" when it is): a file that is no page, or the shapes of crawl traps.
func refusal(u *url.URL, maxDepth int) Reason {
	if len(u.String()) > maxURLLength {
		return ReasonTooLong
	}
	if assetExts[strings.ToLower(path.Ext(u.Path))] {
		return ReasonNotAPage
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if len(segs) > maxDepth {
		return ReasonTooDeep
	}
	// A segment three times in one path is what relative links resolved
	// against the wrong base produce (/a/b/a/b/a/b).
	for i, seg := range segs {
		n := 1
		for _, other := range segs[i+1:] {
			if other == seg {
				n++
			}
		}
		if n >= 3 {
			return ReasonRepeated
		}
	}
	return ""
}
