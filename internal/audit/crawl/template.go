package crawl

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Template is the path pattern a URL is grouped by for sampling: the
// parts of a path that vary between pages of one template generalised —
// numbers to {id}, years, months and days after them to {yyyy}, {mm} and
// {dd}, ISO dates to {date}, hashes and UUIDs to {hash}, and slugs (a
// segment with a hyphen or underscore, and the last segment of any path
// two or more segments deep) to {slug} — with a file extension kept and
// the names of the query parameters appended:
//
//	/blog/2024/05/some-post  → /blog/{yyyy}/{mm}/{slug}
//	/products/123?color=red  → /products/{id}?color
//	/about                   → /about
//
// u is a canonical URL (see Canonicalize).
func Template(u *url.URL) string {
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		segs = nil
	}
	var b strings.Builder
	prev := ""
	for i, seg := range segs {
		g := generalize(seg, prev, i == len(segs)-1 && len(segs) >= 2)
		b.WriteString("/")
		b.WriteString(g)
		prev = g
	}
	if b.Len() == 0 {
		b.WriteString("/")
	}
	if u.RawQuery != "" {
		keys := map[string]bool{}
		for _, p := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(p, "=")
			keys[strings.ToLower(k)] = true
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		b.WriteString("?")
		b.WriteString(strings.Join(names, "&"))
	}
	return b.String()
}

var (
	isoDateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	uuidRE    = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	hexRE     = regexp.MustCompile(`^[0-9a-f]+$`)
	alnumRE   = regexp.MustCompile(`^[0-9a-z]+$`)
	digitsRE  = regexp.MustCompile(`^\d+$`)
)

// generalize returns the pattern of one path segment; prev is the
// pattern of the segment before it, last marks a slug position.
func generalize(seg, prev string, last bool) string {
	lower := strings.ToLower(seg)
	stem, ext := lower, path.Ext(lower)
	if len(ext) >= 2 && len(ext) <= 6 && alnumRE.MatchString(ext[1:]) && len(ext) < len(lower) {
		stem = strings.TrimSuffix(lower, ext)
	} else {
		ext = ""
	}
	switch {
	case digitsRE.MatchString(stem):
		n, _ := strconv.Atoi(stem)
		switch {
		case len(stem) == 4 && n >= 1900 && n <= 2100:
			return "{yyyy}" + ext
		case prev == "{yyyy}" && len(stem) <= 2 && n >= 1 && n <= 12:
			return "{mm}" + ext
		case prev == "{mm}" && len(stem) <= 2 && n >= 1 && n <= 31:
			return "{dd}" + ext
		}
		return "{id}" + ext
	case isoDateRE.MatchString(stem):
		return "{date}" + ext
	case uuidRE.MatchString(stem), hashLike(stem):
		return "{hash}" + ext
	case strings.ContainsAny(stem, "-_+") || strings.Contains(stem, "%20") || last:
		return "{slug}" + ext
	}
	return lower
}

// hashLike reports a segment that reads as a generated identifier: hex of
// eight or more characters mixing digits and letters, or a long run of
// letters and digits with both.
func hashLike(s string) bool {
	hasDigit := strings.ContainsAny(s, "0123456789")
	hasLetter := strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0
	if !hasDigit || !hasLetter {
		return false
	}
	return (len(s) >= 8 && hexRE.MatchString(s)) || (len(s) >= 16 && alnumRE.MatchString(s))
}
