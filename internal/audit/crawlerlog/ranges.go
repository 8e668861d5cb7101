package crawlerlog

import (
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"slices"
	"sync"
)

// embeddedRanges holds the operators' published lists as last refreshed
// (go run ./internal/audit/crawlerlog/cmd/refresh-ranges) and the manifest
// that says where each came from and when.
//
//go:embed ranges/*.json
var embeddedRanges embed.FS

// ManifestFile is the name of the manifest in a ranges folder.
const ManifestFile = "manifest.json"

// Manifest lists the published IP range lists, present or not.
type Manifest struct {
	Lists []ManifestList `json:"lists"`
}

// The states of a list in the manifest.
const (
	ListPresent = "present"
	// ListAbsent: no copy could be obtained; the bots relying on the list
	// are "not checked", never "failed".
	ListAbsent = "absent"
)

// ManifestList is one operator list.
type ManifestList struct {
	// Name is the key the verification table uses.
	Name     string `json:"name"`
	Operator string `json:"operator"`
	// URL is where the operator publishes the list.
	URL string `json:"url"`
	// File is the list's file in the ranges folder; empty when absent.
	File   string `json:"file,omitempty"`
	Status string `json:"status"`
	// Fetched is the date (YYYY-MM-DD) the copy was taken from URL or from
	// the mirror named by CopiedFrom.
	Fetched string `json:"fetched,omitempty"`
	// CopiedFrom names the public copy a list was taken from when it was
	// not downloaded from URL itself.
	CopiedFrom string `json:"copied_from,omitempty"`
	Note       string `json:"note,omitempty"`
}

// RangeList describes a list in a Result: which lists the verdicts rest on
// and how old they are.
type RangeList struct {
	Name     string `json:"name"`
	Operator string `json:"operator"`
	// Present is false for a list that could not be obtained.
	Present bool `json:"present"`
	// Fetched is the date the copy was taken (YYYY-MM-DD).
	Fetched  string `json:"fetched,omitempty"`
	Prefixes int    `json:"prefixes"`
}

// Ranges is a set of loaded range lists, safe for concurrent use.
type Ranges struct {
	lists map[string]*prefixSet
	info  []RangeList
}

// prefixSet holds a list's prefixes as sorted, merged address intervals,
// so a lookup is one binary search.
type prefixSet struct {
	spans []span
	count int
}

type span struct{ lo, hi netip.Addr }

func (p *prefixSet) contains(ip netip.Addr) bool {
	i, found := slices.BinarySearchFunc(p.spans, ip, func(s span, ip netip.Addr) int {
		return s.lo.Compare(ip)
	})
	// Otherwise i is the first span starting after ip; Compare orders every
	// IPv4 address before every IPv6 one, so families never mix.
	return found || i > 0 && p.spans[i-1].hi.Compare(ip) >= 0
}

// Contains reports whether ip is in the named list. An absent or unknown
// list contains nothing.
func (r *Ranges) Contains(list string, ip netip.Addr) bool {
	p := r.lists[list]
	return p != nil && p.contains(ip.Unmap())
}

// Has reports whether the named list was loaded.
func (r *Ranges) Has(list string) bool { return r.lists[list] != nil }

// Lists describes every list of the manifest, present or absent.
func (r *Ranges) Lists() []RangeList { return slices.Clone(r.info) }

// defaultRanges parses the embedded lists once per process.
var defaultRanges = sync.OnceValues(func() (*Ranges, error) {
	sub, err := fs.Sub(embeddedRanges, "ranges")
	if err != nil {
		return nil, err
	}
	return LoadRanges(sub)
})

// DefaultRanges returns the embedded published lists.
func DefaultRanges() (*Ranges, error) { return defaultRanges() }

// LoadRanges reads a ranges folder: its manifest and every present list.
func LoadRanges(fsys fs.FS) (*Ranges, error) {
	raw, err := fs.ReadFile(fsys, ManifestFile)
	if err != nil {
		return nil, fmt.Errorf("crawlerlog: read range manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("crawlerlog: parse range manifest: %w", err)
	}
	r := &Ranges{lists: map[string]*prefixSet{}}
	for _, l := range m.Lists {
		info := RangeList{Name: l.Name, Operator: l.Operator, Fetched: l.Fetched}
		if l.Status == ListPresent {
			data, err := fs.ReadFile(fsys, l.File)
			if err != nil {
				return nil, fmt.Errorf("crawlerlog: range list %s: %w", l.Name, err)
			}
			prefixes, err := ParseRangeList(data)
			if err != nil {
				return nil, fmt.Errorf("crawlerlog: range list %s: %w", l.Name, err)
			}
			r.lists[l.Name] = newPrefixSet(prefixes)
			info.Present, info.Prefixes = true, len(prefixes)
		}
		r.info = append(r.info, info)
	}
	return r, nil
}

// NewRanges builds Ranges from prefixes keyed by list name, for tests and
// callers that hold their own lists.
func NewRanges(lists map[string][]netip.Prefix) *Ranges {
	r := &Ranges{lists: map[string]*prefixSet{}}
	for name, prefixes := range lists {
		r.lists[name] = newPrefixSet(prefixes)
		r.info = append(r.info, RangeList{Name: name, Present: true, Prefixes: len(prefixes)})
	}
	slices.SortFunc(r.info, func(a, b RangeList) int { return cmp.Compare(a.Name, b.Name) })
	return r
}

func newPrefixSet(prefixes []netip.Prefix) *prefixSet {
	spans := make([]span, 0, len(prefixes))
	for _, p := range prefixes {
		p = p.Masked()
		spans = append(spans, span{lo: p.Addr(), hi: lastAddr(p)})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.lo.Compare(b.lo) })
	merged := spans[:0]
	for _, s := range spans {
		if n := len(merged); n > 0 && merged[n-1].lo.BitLen() == s.lo.BitLen() &&
			(merged[n-1].hi.Compare(s.lo) >= 0 || merged[n-1].hi.Next() == s.lo) {
			if s.hi.Compare(merged[n-1].hi) > 0 {
				merged[n-1].hi = s.hi
			}
			continue
		}
		merged = append(merged, s)
	}
	return &prefixSet{spans: merged, count: len(prefixes)}
}

// lastAddr is the highest address of a masked prefix.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// The broadest prefixes a list may hold: a wider one would "verify" a
// large part of the Internet, so it is taken for a broken download.
const (
	minBitsV4 = 8
	minBitsV6 = 16
)

// ErrBadRangeList reports a list that is not in the operators' shared
// shape or holds an unusable prefix.
var ErrBadRangeList = errors.New("not a usable IP range list")

// ParseRangeList reads a list in the shape Google introduced and the other
// operators copied: {"prefixes": [{"ipv4Prefix": "…"}, {"ipv6Prefix": "…"}]}
// (other top-level fields such as creationTime are ignored). A bare
// address is read as a single-address prefix. It refuses an empty list,
// a malformed prefix, a non-public one and one broader than /8 (IPv4) or
// /16 (IPv6), so a refresh never replaces a good list with a broken one.
func ParseRangeList(data []byte) ([]netip.Prefix, error) {
	var doc struct {
		Prefixes []struct {
			IPv4 string `json:"ipv4Prefix"`
			IPv6 string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRangeList, err)
	}
	var out []netip.Prefix
	for _, e := range doc.Prefixes {
		for _, s := range []string{e.IPv4, e.IPv6} {
			if s == "" {
				continue
			}
			p, err := parsePrefix(s)
			if err != nil {
				return nil, err
			}
			if (e.IPv4 == s) != p.Addr().Is4() {
				return nil, fmt.Errorf("%w: %q is in the wrong address family", ErrBadRangeList, s)
			}
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no prefixes", ErrBadRangeList)
	}
	return out, nil
}

func parsePrefix(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		a, aerr := netip.ParseAddr(s)
		if aerr != nil {
			return netip.Prefix{}, fmt.Errorf("%w: %q is not a prefix", ErrBadRangeList, s)
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	a := p.Addr()
	switch {
	case a.Zone() != "", a.Is4In6():
		return netip.Prefix{}, fmt.Errorf("%w: %q is not a plain prefix", ErrBadRangeList, s)
	case a.Is4() && p.Bits() < minBitsV4, a.Is6() && p.Bits() < minBitsV6:
		return netip.Prefix{}, fmt.Errorf("%w: %q is too broad", ErrBadRangeList, s)
	case !a.IsGlobalUnicast() || a.IsPrivate():
		return netip.Prefix{}, fmt.Errorf("%w: %q is not a public prefix", ErrBadRangeList, s)
	}
	return p.Masked(), nil
}
