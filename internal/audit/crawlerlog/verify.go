package crawlerlog

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Resolver is the DNS a verification uses; *net.Resolver implements it.
type Resolver interface {
	LookupAddr(ctx context.Context, addr string) ([]string, error)
	LookupHost(ctx context.Context, host string) ([]string, error)
}

// verifier is how an operator lets a site check a claim to be its crawler.
type verifier struct {
	// lists are the operator's published range lists (manifest names).
	lists []string
	// domains are the names forward-confirmed reverse DNS accepts: the
	// address's PTR name must be one of them or end in "."+one, and that
	// name must resolve back to the address.
	domains []string
}

// verifierFor returns the documented verification of a token (lower
// case). Sources, as the operators publish them:
//   - Google, "Verifying Googlebot and other Google crawlers"
//     (developers.google.com/crawling/docs/crawlers-fetchers/verify-google-requests):
//     the common-crawlers list, or reverse DNS in googlebot.com or
//     google.com. googleusercontent.com is documented only for the
//     user-triggered fetchers and is the name of every Google Cloud
//     machine, so it never verifies Googlebot.
//   - Microsoft, "Verifying Bingbot" (bing.com/webmasters/help/how-to-verify-bingbot-3905dc26):
//     bingbot.json, or reverse DNS in search.msn.com.
//   - Apple, "About Applebot" (support.apple.com/en-us/119829):
//     applebot.json, or reverse DNS in applebot.apple.com.
//   - Amazon, "Amazonbot" (developer.amazon.com/amazonbot): reverse DNS in
//     crawl.amazonbot.amazon.
//   - Common Crawl, "CCBot" (commoncrawl.org/ccbot): ccbot.json, or
//     reverse DNS in crawl.commoncrawl.org.
//   - OpenAI (platform.openai.com/docs/bots), Anthropic (claude.com/crawling/bots.json,
//     one list for its three bots), Perplexity (docs.perplexity.ai/guides/bots),
//     DuckDuckGo (duckduckgo.com/duckduckgo-help-pages/results/duckassistbot):
//     published lists only.
func verifierFor(token string) verifier {
	switch token {
	case "googlebot":
		return verifier{lists: []string{"google-common-crawlers"}, domains: []string{"googlebot.com", "google.com"}}
	case "bingbot":
		return verifier{lists: []string{"bingbot"}, domains: []string{"search.msn.com"}}
	case "applebot":
		return verifier{lists: []string{"applebot"}, domains: []string{"applebot.apple.com"}}
	case "amazonbot":
		return verifier{domains: []string{"crawl.amazonbot.amazon"}}
	case "ccbot":
		return verifier{lists: []string{"commoncrawl-ccbot"}, domains: []string{"crawl.commoncrawl.org"}}
	case "gptbot":
		return verifier{lists: []string{"openai-gptbot"}}
	case "oai-searchbot":
		return verifier{lists: []string{"openai-searchbot"}}
	case "chatgpt-user":
		return verifier{lists: []string{"openai-chatgpt-user"}}
	case "claudebot", "claude-searchbot", "claude-user":
		return verifier{lists: []string{"anthropic-bots"}}
	case "perplexitybot":
		return verifier{lists: []string{"perplexity-perplexitybot"}}
	case "perplexity-user":
		return verifier{lists: []string{"perplexity-user"}}
	case "duckassistbot":
		return verifier{lists: []string{"duckduckgo-duckassistbot"}}
	}
	return verifier{}
}

// outcome is the verdict on one hit.
type outcome int

const (
	notChecked outcome = iota
	verifiedByList
	verifiedByDNS
	failed
)

// Defaults of Options.
const (
	DefaultMaxLookups   = 300
	DefaultMaxLineBytes = 64 << 10
	DefaultMaxPaths     = 5000
	// dnsTimeout bounds one lookup, so a dead resolver costs seconds, not
	// the job's whole deadline.
	dnsTimeout = 3 * time.Second
	// maxPTRNames bounds the names of one address that are resolved back.
	maxPTRNames = 4
)

// botVerifier is a verifier bound to the loaded ranges.
type botVerifier struct {
	lists   []string // the lists that were loaded
	domains []string
	method  string
}

func newBotVerifier(token string, r *Ranges) botVerifier {
	v := verifierFor(strings.ToLower(token))
	bv := botVerifier{domains: v.domains, method: MethodNone}
	for _, l := range v.lists {
		if r.Has(l) {
			bv.lists = append(bv.lists, l)
		}
	}
	switch {
	case len(bv.lists) > 0:
		bv.method = MethodIPRanges
	case len(bv.domains) > 0:
		bv.method = MethodReverseDNS
	}
	return bv
}

// verify judges a claim from ip. A published list decides first; an
// address it does not hold is then given to reverse DNS where the operator
// documents it (an embedded list can be older than the operator's), and
// is failed when DNS refutes it or cannot be asked: the operator's list
// says the address is not theirs. Without a list, only DNS decides, and
// DNS that cannot be asked (no resolver, budget spent, an error) leaves
// the hit not checked.
func (a *analyzer) verify(ctx context.Context, v *botVerifier, ip netip.Addr) outcome {
	for _, l := range v.lists {
		if a.ranges.Contains(l, ip) {
			return verifiedByList
		}
	}
	dns := dnsUnknown
	if len(v.domains) > 0 {
		dns = a.reverseDNS(ctx, ip, v.domains)
	}
	switch {
	case dns == dnsConfirmed:
		return verifiedByDNS
	case dns == dnsRefuted, len(v.lists) > 0:
		return failed
	}
	return notChecked
}

type dnsResult int

const (
	dnsUnknown dnsResult = iota
	dnsConfirmed
	dnsRefuted
)

type dnsKey struct {
	ip      netip.Addr
	domains string
}

// dnsState is the lookup budget and cache of one analysis, shared by its
// workers.
type dnsState struct {
	mu      sync.Mutex
	cache   map[dnsKey]dnsResult
	lookups int
	// failing counts the lookups in a row that DNS could not answer.
	failing int
}

// maxDNSFailing is how many lookups in a row may fail before DNS is
// taken to be down for the rest of the analysis: each may wait
// dnsTimeout, and a resolver that is down would otherwise hold the
// analysis for MaxLookups × dnsTimeout (15 minutes by default).
const maxDNSFailing = 5

// reverseDNS runs forward-confirmed reverse DNS for ip against domains,
// within the lookup budget; results are kept per address and domain set,
// so the cache holds at most MaxLookups entries.
func (a *analyzer) reverseDNS(ctx context.Context, ip netip.Addr, domains []string) dnsResult {
	if a.opts.Resolver == nil {
		return dnsUnknown
	}
	key := dnsKey{ip, strings.Join(domains, " ")}
	d := a.dns
	d.mu.Lock()
	if r, ok := d.cache[key]; ok {
		d.mu.Unlock()
		return r
	}
	if d.lookups >= a.opts.MaxLookups || d.failing >= maxDNSFailing || ctx.Err() != nil {
		d.mu.Unlock()
		return dnsUnknown
	}
	d.lookups++ // reserved before the lookup, which runs unlocked
	d.mu.Unlock()
	r := a.lookupFCrDNS(ctx, ip, domains)
	d.mu.Lock()
	d.cache[key] = r
	if r == dnsUnknown {
		d.failing++
	} else {
		d.failing = 0
	}
	d.mu.Unlock()
	return r
}

func (a *analyzer) lookupFCrDNS(ctx context.Context, ip netip.Addr, domains []string) dnsResult {
	ctx, cancel := context.WithTimeout(ctx, dnsTimeout)
	defer cancel()
	names, err := a.opts.Resolver.LookupAddr(ctx, ip.String())
	if err != nil {
		// An address without a PTR name is not the operator's; any other
		// error says nothing.
		if dnsErr, ok := errors.AsType[*net.DNSError](err); ok && dnsErr.IsNotFound {
			return dnsRefuted
		}
		return dnsUnknown
	}
	unsure := false
	for i, name := range names {
		if i == maxPTRNames {
			break
		}
		name = strings.ToLower(strings.TrimSuffix(name, "."))
		if !inDomains(name, domains) {
			continue
		}
		addrs, err := a.opts.Resolver.LookupHost(ctx, name)
		if err != nil {
			unsure = true
			continue
		}
		for _, s := range addrs {
			if back, err := netip.ParseAddr(s); err == nil && back.Unmap().WithZone("") == ip {
				return dnsConfirmed
			}
		}
	}
	if unsure {
		return dnsUnknown
	}
	return dnsRefuted
}

func inDomains(name string, domains []string) bool {
	for _, d := range domains {
		if name == d || strings.HasSuffix(name, "."+d) {
			return true
		}
	}
	return false
}
