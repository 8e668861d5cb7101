// Package netguard owns the rules for outbound targets — the URLs GeoScan
// scans and the callback URLs it posts to — and the SSRF-safe HTTP client
// the scanner and the webhook sender share.
//
// Checks happen twice. When a URL comes in, CheckURL validates and
// normalizes it and resolves its host, so a bad target gets a clear 422 and
// no scan or quota is created. When a connection is made, the dialer checks
// the address actually dialled (every resolved address, every redirect hop),
// which closes DNS rebinding and redirect tricks that a URL-time check alone
// cannot. AllowPrivate lifts both the address and the port rules, for local
// fixture sites and receivers, but never opens cloud metadata services:
// link-local addresses and the known metadata addresses stay refused in
// every form (IPv4, IPv4-mapped, embedded by NAT64, 6to4, Teredo or
// ISATAP) and so do the metadata host names, directly and on redirects. The
// configuration refuses AllowPrivate outside dev and test mode.
//
// TLSReason words the client's TLS failures for people, so the scanner and
// the webhook sender say the same about an expired or mismatched
// certificate.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"code.dny.dev/ssrf"
	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// MaxURLLength is the longest URL accepted, in bytes of the raw input.
const MaxURLLength = 2048

// Resolver looks host names up; *net.Resolver satisfies it.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Policy decides which URLs are acceptable targets.
type Policy struct {
	// AllowPrivate accepts loopback, private and reserved addresses and any
	// port (dev/test only).
	AllowPrivate bool
	// Resolver resolves host names; nil uses net.DefaultResolver.
	Resolver Resolver
}

// URLError is a refused URL; Reason is a sentence for the API client.
type URLError struct {
	Reason string
	// Unresolvable is set when the host name did not resolve.
	Unresolvable bool
}

func (e *URLError) Error() string { return e.Reason }

func refuse(format string, args ...any) *URLError {
	return &URLError{Reason: fmt.Sprintf(format, args...)}
}

// Target is an accepted, normalized URL.
type Target struct {
	URL  *url.URL
	Host string // ASCII (punycode), lower case, no port, no brackets
	Port string // "" for the default port
}

// String is the normalized URL as stored.
func (t *Target) String() string { return t.URL.String() }

// internalSuffixes are name spaces that never lead to a public site.
var internalSuffixes = []string{".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".intranet", ".corp"}

// guard is the address policy shared by URL checks and dial-time checks.
func guard(allowPrivate bool, ports ...uint16) *ssrf.Guardian {
	if allowPrivate {
		return nil
	}
	if len(ports) == 0 {
		ports = []uint16{443}
	}
	return ssrf.New(ssrf.WithPorts(ports...))
}

// Cloud metadata services outside the link-local ranges.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),   // AWS, IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
	netip.MustParseAddr("192.0.0.192"),     // Oracle Cloud, legacy
}

// metadataNames are the host names cloud metadata services answer under.
var metadataNames = map[string]bool{
	"metadata":                     true, // GCE search-domain short name
	"metadata.google.internal":     true,
	"metadata.goog":                true,
	"instance-data":                true, // AWS
	"instance-data.ec2.internal":   true,
	"metadata.azure.internal":      true,
	"metadata.tencentyun.com":      true,
	"metadata.platformequinix.com": true,
	"metadata.packet.net":          true,
}

// Prefixes of IPv6 transition mechanisms that carry an IPv4 address: a
// router or relay on the way may deliver such a packet to that address.
var (
	nat64       = netip.MustParsePrefix("64:ff9b::/96")   // RFC 6052, last 32 bits
	nat64Local  = netip.MustParsePrefix("64:ff9b:1::/48") // RFC 8215, last 32 bits in the /96 form
	sixToFour   = netip.MustParsePrefix("2002::/16")      // RFC 3056, bits 16-47
	teredo      = netip.MustParsePrefix("2001::/32")      // RFC 4380, server in bits 32-63, client inverted in the last 32
	ipv4Compat  = netip.MustParsePrefix("::/96")          // deprecated IPv4-compatible form
	linkLocalV4 = netip.MustParsePrefix("169.254.0.0/16")
)

// withEmbedded returns ip, unmapped and without a zone, and every IPv4
// address embedded in it by NAT64, 6to4, Teredo, ISATAP or the
// IPv4-compatible form.
func withEmbedded(ip netip.Addr) []netip.Addr {
	ip = ip.WithZone("").Unmap()
	out := []netip.Addr{ip}
	if !ip.Is6() {
		return out
	}
	b := ip.As16()
	last := netip.AddrFrom4([4]byte(b[12:16]))
	switch {
	case nat64.Contains(ip), nat64Local.Contains(ip), ipv4Compat.Contains(ip):
		out = append(out, last)
	case sixToFour.Contains(ip):
		out = append(out, netip.AddrFrom4([4]byte(b[2:6])))
	case teredo.Contains(ip):
		out = append(out, netip.AddrFrom4([4]byte(b[4:8])),
			netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}))
	}
	if b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe && (b[8] == 0 || b[8] == 2) { // ISATAP interface id
		out = append(out, last)
	}
	return out
}

// alwaysBlocked are addresses refused even when private targets are
// allowed: link-local ranges, where most cloud metadata services answer,
// the metadata addresses outside them, and any of these embedded in an
// IPv6 address.
func alwaysBlocked(ip netip.Addr) bool {
	for _, a := range withEmbedded(ip) {
		if a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || linkLocalV4.Contains(a) || slices.Contains(metadataAddrs, a) {
			return true
		}
	}
	return false
}

// IsMetadataName reports whether host (ASCII, any case, trailing dot
// allowed) is a cloud metadata service's name.
func IsMetadataName(host string) bool {
	return metadataNames[strings.ToLower(strings.TrimSuffix(host, "."))]
}

// CheckURL validates raw as an outbound HTTPS target and normalizes it:
// lower-case scheme and host, IDN hosts in punycode, default port, trailing
// dot and fragment removed, empty path made "/". A host name is resolved
// in every mode, through the resolver the client dials with, so a name
// that does not resolve is refused now (Unresolvable) rather than left to
// fail when it is fetched. Without AllowPrivate every address must be
// public; with it, only link-local and cloud metadata addresses are
// refused.
func (p Policy) CheckURL(ctx context.Context, raw string) (*Target, error) {
	t, err := parse(raw, p.AllowPrivate)
	if err != nil {
		return nil, err
	}
	g := guard(p.AllowPrivate)
	if ip, err := netip.ParseAddr(t.Host); err == nil {
		// parse has refused link-local and metadata addresses already.
		if g != nil {
			if err := g.SafeAddr(ip); err != nil {
				return nil, refuse("url must point to a public address, not %s", ip)
			}
		}
		return t, nil
	}
	resolver := p.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	addrs, err := resolver.LookupIPAddr(ctx, t.Host)
	if err != nil || len(addrs) == 0 {
		return nil, &URLError{Reason: fmt.Sprintf("url host %s could not be resolved", t.Host), Unresolvable: true}
	}
	// Every address must be acceptable: a name with one private address
	// among public ones is refused outright (OWASP: check all records).
	for _, a := range addrs {
		// net.IP keeps IPv4 in 16-byte form; unmap so it is classified as v4.
		ip, ok := netip.AddrFromSlice(a.IP)
		ip = ip.Unmap()
		if !ok {
			return nil, refuse("url host %s resolves to an invalid address", t.Host)
		}
		if g == nil {
			// Private targets are allowed, metadata services are not (the
			// dialer refuses them anyway).
			if alwaysBlocked(ip) {
				return nil, refuse("url host %s resolves to a link-local or cloud metadata address (%s)", t.Host, ip)
			}
			continue
		}
		if err := g.SafeAddr(ip); err != nil {
			return nil, refuse("url host %s resolves to a private or reserved address (%s)", t.Host, ip)
		}
	}
	return t, nil
}

// parse applies the rules that need no DNS.
func parse(raw string, allowPrivate bool) (*Target, error) {
	if raw == "" {
		return nil, refuse("url must not be empty")
	}
	if len(raw) > MaxURLLength {
		return nil, refuse("url must be at most %d characters long", MaxURLLength)
	}
	for _, r := range raw {
		if r < 0x21 || r == 0x7f || r == '\\' || unicode.IsSpace(r) {
			return nil, refuse("url must not contain spaces, control characters or backslashes")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, refuse("url is not a valid URL")
	}
	if !u.IsAbs() {
		return nil, refuse("url must be an absolute https URL")
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return nil, refuse("url must use https, not %s", strings.ToLower(u.Scheme))
	}
	if u.User != nil || strings.Contains(u.Host, "@") {
		return nil, refuse("url must not contain credentials")
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, refuse("url must have a host")
	}
	port := u.Port()
	if port == "443" {
		port = ""
	}
	if port != "" && !allowPrivate {
		return nil, refuse("url must use the default https port 443, not %s", port)
	}
	if port != "" {
		if n, err := parsePort(port); err != nil || n == 0 {
			return nil, refuse("url port %s is not valid", port)
		}
	}
	host, err := normalizeHost(u.Hostname(), allowPrivate)
	if err != nil {
		return nil, err
	}

	out := *u
	out.Scheme = "https"
	out.User = nil
	out.Fragment, out.RawFragment = "", ""
	hostPort := host
	if strings.Contains(host, ":") {
		hostPort = "[" + host + "]"
	}
	if port != "" {
		hostPort = net.JoinHostPort(host, port)
	}
	out.Host = hostPort
	if out.Path == "" && out.RawPath == "" {
		out.Path = "/"
	}
	return &Target{URL: &out, Host: host, Port: port}, nil
}

func parsePort(s string) (int, error) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errors.New("not a number")
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return 0, errors.New("out of range")
		}
	}
	return n, nil
}

// normalizeHost lower-cases the host, converts IDN names to punycode and
// refuses names that can only be internal.
func normalizeHost(h string, allowPrivate bool) (string, error) {
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return "", refuse("url must have a host")
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		if ip.Zone() != "" {
			return "", refuse("url host must not carry an IPv6 zone")
		}
		if alwaysBlocked(ip) {
			return "", refuse("url must not point to a link-local or cloud metadata address (%s)", ip)
		}
		return ip.String(), nil
	}
	ascii, err := idna.Lookup.ToASCII(h)
	if err != nil || ascii == "" {
		return "", refuse("url host %q is not a valid host name", h)
	}
	ascii = strings.ToLower(strings.TrimSuffix(ascii, "."))
	// IDNA mapping can turn look-alike characters into an IP literal
	// (enclosed or full-width digits); check the mapped form again.
	if ip, err := netip.ParseAddr(ascii); err == nil {
		if alwaysBlocked(ip) {
			return "", refuse("url must not point to a link-local or cloud metadata address (%s)", ip)
		}
		return ip.String(), nil
	}
	if IsMetadataName(ascii) {
		return "", refuse("url must not point to a cloud metadata service (%s)", ascii)
	}
	if len(ascii) > 253 {
		return "", refuse("url host is longer than 253 characters")
	}
	labels := strings.Split(ascii, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "", refuse("url host %q has an empty label or one longer than 63 characters", ascii)
		}
	}
	// Forms like 2130706433, 0x7f000001, 127.1 or 0177.0.0.1 are not IP
	// literals to Go, but some resolvers read them as addresses.
	if looksNumeric(labels) {
		return "", refuse("url host %q is not a valid host name or IP address", ascii)
	}
	if !allowPrivate {
		if len(labels) < 2 {
			return "", refuse("url host %q is not a public domain name", ascii)
		}
		if ascii == "localhost" {
			return "", refuse("url must not point to localhost")
		}
		for _, s := range internalSuffixes {
			if strings.HasSuffix(ascii, s) {
				return "", refuse("url host %q is in an internal name space", ascii)
			}
		}
	}
	return ascii, nil
}

// looksNumeric is true when the last label is numeric or hex, which no real
// top-level domain is.
func looksNumeric(labels []string) bool {
	last := labels[len(labels)-1]
	if strings.HasPrefix(last, "0x") {
		return true
	}
	for _, c := range last {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// IsHomepage reports whether u is a site's homepage: path empty or "/", no query.
func IsHomepage(u *url.URL) bool {
	return (u.Path == "" || u.Path == "/") && u.RawQuery == "" && !u.ForceQuery
}

// Normalize returns the normalized form of a URL without checking where it
// points (for filters that compare against stored URLs).
func Normalize(raw string) (string, error) {
	t, err := parse(raw, true)
	if err != nil {
		return "", err
	}
	return t.String(), nil
}

// ASCIIHost returns host in the form stored: punycode, lower case.
func ASCIIHost(host string) (string, error) {
	h, err := idna.Lookup.ToASCII(strings.TrimSuffix(host, "."))
	if err != nil {
		return "", err
	}
	return strings.ToLower(h), nil
}

// RegistrableName is the default brand name of a host: its registrable
// domain (the public suffix and the label before it) in its Unicode display
// form (www.shop.example.co.uk → example.co.uk, xn--bcher-kva.example →
// bücher.example). The whole domain, not its first label, is what a reader
// recognises as the site's name ("nimbus-app.com", not "nimbus-app"), and
// the brand checks reduce a domain-shaped brand to its name themselves.
// IP addresses are returned as they are.
func RegistrableName(host string) string {
	if _, err := netip.ParseAddr(host); err == nil {
		return host
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	domain, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		domain = host
	}
	if u, err := idna.ToUnicode(domain); err == nil && u != "" {
		return u
	}
	return domain
}
