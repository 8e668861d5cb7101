package testsite

import (
	"context"
	"net"
	"strings"
)

// Resolver is a fake DNS for the fixture hosts: each resolves to 127.0.0.1
// and every other name fails as an unknown domain would. It satisfies the
// Resolver interface of internal/netguard.
//
// IP literals fail too, although a real resolver returns them unchanged: a
// dialer that resolves every hop through this Resolver then cannot reach an
// address such as the one the metadata-redirect fixture points at, even in
// tests that lift the private-address rules to reach 127.0.0.1.
type Resolver struct {
	hosts map[string]bool
}

func newResolver(names []string) *Resolver {
	r := &Resolver{hosts: map[string]bool{}}
	for _, n := range names {
		r.hosts[n] = true
	}
	return r
}

// LookupIPAddr resolves a fixture host to 127.0.0.1.
func (r *Resolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if !r.hosts[strings.TrimSuffix(strings.ToLower(host), ".")] {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.IPv4(127, 0, 0, 1)}}, nil
}

// DialContext connects to a "host:port" address after resolving host with
// LookupIPAddr; it fits http.Transport.DialContext.
func (r *Resolver) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	addrs, err := r.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort(addrs[0].IP.String(), port))
}
