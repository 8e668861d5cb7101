package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// What an audit holds grows with the HTML it parses: the DOMs, the text
// flattened from them, the outcomes' evidence, the report and the
// snapshot. On the heavy fixture (a 4.9 MB homepage) one audit peaks at
// about 78 MiB of heap, garbage not yet collected included, some 16 bytes
// per byte of HTML; an ordinary site stays under the floor.
const (
	// MemoryPerHTMLByte is the estimate's bytes per byte of parsed HTML.
	MemoryPerHTMLByte = 16
	// MemoryFloor is the least an audit is estimated to hold.
	MemoryFloor = 2 << 20
	// MemoryKeyPagesMargin is the HTML of key pages a homepage's
	// reservation counts before they are read. An ordinary site's key
	// pages are smaller, so its audit asks once; an audit whose key pages
	// are bigger asks again for the whole.
	MemoryKeyPagesMargin = 64 << 10
)

// ErrMemoryWait is part of Run's error when ctx ended while the audit
// waited for Options.Reserve: other audits held the memory it needed to
// parse or judge the site until no time was left.
var ErrMemoryWait = errors.New("waited for memory to judge it")

// MemoryEstimate is what an audit of site is estimated to hold:
// MemoryPerHTMLByte for every byte of HTML parsed (the homepage and the
// key pages), at least MemoryFloor. Run holds at least this much of
// Options.Reserve while it judges the site.
func MemoryEstimate(site *fetch.Site) int64 {
	var html int64
	for _, p := range site.Parsed {
		if p != nil {
			html += int64(p.HTMLBytes)
		}
	}
	return estimateOf(html)
}

func estimateOf(html int64) int64 { return max(MemoryFloor, MemoryPerHTMLByte*html) }

// memoryHold is what one audit holds of Options.Reserve. An audit asks
// before it parses its homepage, by the homepage's size: 16 audits of
// big pages that arrive together then parse them a few at a time, not
// all at once before any of them waits. It never waits while holding:
// when it needs more (key pages past the margin), it gives back what it
// holds and asks for the whole, so audits waiting for memory hold none
// of it and cannot keep each other waiting. Its methods are called by
// one goroutine at a time.
type memoryHold struct {
	reserve func(ctx context.Context, bytes int64) (release func(), err error)
	html    int64 // HTML announced so far
	held    int64
	release func()
	waited  time.Duration
}

// newMemoryHold is the hold of an audit run with opts; nil when opts
// reserve nothing.
func newMemoryHold(opts Options) *memoryHold {
	if opts.Reserve == nil {
		return nil
	}
	return &memoryHold{reserve: opts.Reserve}
}

// beforeParse is fetch.SiteOpts.BeforeParse: it holds enough for
// htmlBytes more of HTML, the first call (the homepage's) counting the
// key pages' margin as well.
func (m *memoryHold) beforeParse(ctx context.Context, htmlBytes int) error {
	margin := int64(0)
	if m.html == 0 {
		margin = MemoryKeyPagesMargin
	}
	m.html += int64(htmlBytes)
	return m.atLeast(ctx, estimateOf(m.html+margin))
}

// atLeast holds at least bytes, waiting for them when it holds less.
func (m *memoryHold) atLeast(ctx context.Context, bytes int64) error {
	if m == nil || bytes <= m.held {
		return nil
	}
	m.done()
	start := time.Now()
	release, err := m.reserve(ctx, bytes)
	m.waited += time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %w: %w", ErrOutOfTime, ErrMemoryWait, context.Cause(ctx))
		}
		return fmt.Errorf("reserve memory: %w", err)
	}
	if release == nil {
		release = func() {}
	}
	m.held, m.release = bytes, release
	return nil
}

// holding is what is held.
func (m *memoryHold) holding() int64 {
	if m == nil {
		return 0
	}
	return m.held
}

// done gives back what is held.
func (m *memoryHold) done() {
	if m == nil || m.release == nil {
		return
	}
	m.release()
	m.held, m.release = 0, nil
}

// siteOpts are the fetch settings that make the fetch ask m before
// parsing.
func (m *memoryHold) siteOpts() fetch.SiteOpts {
	if m == nil {
		return fetch.SiteOpts{}
	}
	return fetch.SiteOpts{BeforeParse: m.beforeParse}
}

// A whole-site audit's pages are parsed and judged after its homepage
// audit, each in a reservation of its own. Run gives the homepage's hold
// back before the crawl (the homepage has been judged; what the result
// keeps of it is a fraction of what judging took), so a page waiting for
// memory is the only thing its audit asks for, and a page that holds
// memory is parsed, judged and released without waiting for memory:
// audits cannot keep each other waiting, and a page estimated above the
// whole budget gets what the budget allows (the Reserve's rule) rather
// than waiting on its own audit. One audit holds at most one reservation
// per judging goroutine (siteJudge), so a long audit takes its turns
// with the others page by page instead of holding the budget until it
// ends.

// reservePage holds, before p is parsed, what parsing and judging it is
// estimated to take: estimateOf its HTML, the rule of MemoryEstimate. A
// page that will not be parsed (an error, a redirect, not HTML) asks for
// nothing. The release is never nil; the error is ctx's when it ends
// while the page waits.
func (j *siteJudge) reservePage(ctx context.Context, p *crawl.Page) (release func(), err error) {
	r := p.Response
	parsed := r != nil && r.Err == nil && r.OK() && r.IsHTML() && p.RedirectTo == ""
	if j.opts.Reserve == nil || !parsed {
		return func() {}, nil
	}
	release, err = j.opts.Reserve(ctx, estimateOf(int64(len(r.Body))))
	if err != nil {
		return nil, err
	}
	if release == nil {
		release = func() {}
	}
	return release, nil
}

// wait is the time spent waiting for memory.
func (m *memoryHold) wait() time.Duration {
	if m == nil {
		return 0
	}
	return m.waited
}
