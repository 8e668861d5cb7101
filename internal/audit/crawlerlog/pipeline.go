package crawlerlog

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Lines are read on the caller's goroutine and parsed by workers, each
// with its own accumulators, merged at the end: one goroutine parses a
// mixed log at a fifth of the speed a bare line scanner reads it, mostly
// in JSON decoding (docs/PERFORMANCE.md, "Crawler log analysis").
const (
	maxWorkers = 4
	// batchBytes is the size of the batches of lines handed to a worker.
	batchBytes = 1 << 20
	// ctxCheckEvery is how many lines are read between checks of ctx.
	ctxCheckEvery = 1 << 12
)

// batchLine is one line of a batch: its bytes are data[start:end].
type batchLine struct {
	no         int64
	start, end int
	tooLong    bool
	w3c        *w3cFields
}

type batch struct {
	data  []byte
	lines []batchLine
}

// analyze is Analyze with the batch size a parameter, so tests can cut a
// small log into many batches.
func analyze(ctx context.Context, r io.Reader, opts Options, batchSize int) (Result, error) {
	opts = opts.withDefaults()
	if opts.Ranges == nil {
		rs, err := DefaultRanges()
		if err != nil {
			return Result{}, err
		}
		opts.Ranges = rs
	}
	lr := newLineReader(r, opts.MaxLineBytes)
	// The first read fills the buffer: enough to see the format's magic
	// bytes, and to tell a small log from a large one.
	head := lr.peek(len(lr.buf))
	for _, m := range compressedMagic {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return Result{}, fmt.Errorf("%w (%s): decompress it first", ErrCompressed, m.name)
		}
	}
	// A log saved as UTF-16 (what Windows PowerShell's Out-File and ">"
	// write) is read decoded, or every line of it would be binary; the
	// decoder takes the byte order mark. (A reader that failed already
	// fails the analysis as it is.)
	utf16 := bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF})
	if utf16 && lr.err == nil {
		rest := io.MultiReader(bytes.NewReader(bytes.Clone(head)), lr.r)
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		lr = newLineReader(transform.NewReader(rest, dec), opts.MaxLineBytes)
		lr.peek(len(lr.buf)) // the first read, as above
	}
	dns := &dnsState{cache: map[dnsKey]dnsResult{}}
	// A log that fits in the first read and in one batch is parsed on this
	// goroutine.
	if opts.Workers == 1 || lr.eof && lr.end-lr.start <= batchSize {
		a := newAnalyzer(opts, dns)
		err := readLines(ctx, lr, func(no int64, line []byte, tooLong bool, w3c *w3cFields) {
			if tooLong {
				a.tooLong(no)
				return
			}
			a.line(ctx, no, line, w3c)
		})
		if err != nil {
			return Result{}, err
		}
		return a.result(), nil
	}
	return analyzeParallel(ctx, lr, opts, dns, max(batchSize, opts.MaxLineBytes))
}

// readLines reads every line, handling blank lines and W3C directives
// itself, and gives the others to fn with their line number.
func readLines(ctx context.Context, lr *lineReader, fn func(no int64, line []byte, tooLong bool, w3c *w3cFields)) error {
	var no int64
	var w3c *w3cFields
	for {
		if no%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("crawlerlog: read log: %w", err)
		}
		no++
		if tooLong {
			fn(no, nil, true, w3c)
			continue
		}
		line = trimLine(line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '#' {
			if directive, isFields, fields := w3cDirective(line); directive {
				if isFields {
					w3c = fields
				}
				continue
			}
		}
		fn(no, line, false, w3c)
	}
}

func analyzeParallel(ctx context.Context, lr *lineReader, opts Options, dns *dnsState, size int) (Result, error) {
	// Batches circulate between the reader and the workers: memory stays at
	// a few batches however long the log.
	free := make(chan *batch, 2*opts.Workers)
	for range cap(free) {
		free <- &batch{}
	}
	work := make(chan *batch, cap(free))
	workers := make([]*analyzer, opts.Workers)
	var wg sync.WaitGroup
	for i := range workers {
		a := newAnalyzer(opts, dns)
		workers[i] = a
		wg.Go(func() {
			for b := range work {
				for _, l := range b.lines {
					if l.tooLong {
						a.tooLong(l.no)
						continue
					}
					a.line(ctx, l.no, b.data[l.start:l.end], l.w3c)
				}
				b.data, b.lines = b.data[:0], b.lines[:0]
				free <- b
			}
		})
	}
	cur := <-free
	err := readLines(ctx, lr, func(no int64, line []byte, tooLong bool, w3c *w3cFields) {
		if len(cur.data)+len(line) > size {
			work <- cur
			cur = <-free
		}
		start := len(cur.data)
		cur.data = append(cur.data, line...)
		cur.lines = append(cur.lines, batchLine{no: no, start: start, end: len(cur.data), tooLong: tooLong, w3c: w3c})
	})
	work <- cur
	close(work)
	wg.Wait()
	if err != nil {
		return Result{}, err
	}
	all := workers[0]
	for _, w := range workers[1:] {
		all.absorb(w)
	}
	return all.result(), nil
}

// absorb adds another worker's accumulators to a's. Where a bound is
// reached, the paths (and dates) with most hits are kept and the others'
// hits counted as untracked.
func (a *analyzer) absorb(b *analyzer) {
	a.lines += b.lines
	a.parsed += b.parsed
	for reason, u := range b.reasons {
		if mine := a.reasons[reason]; mine != nil {
			mine.Count += u.Count
			mine.FirstLine = min(mine.FirstLine, u.FirstLine)
		} else {
			a.reasons[reason] = u
		}
	}
	a.flushFormatRun()
	b.flushFormatRun()
	for f, n := range b.formats {
		a.formats[f] += n
	}
	if b.seen {
		if !a.seen || b.first < a.first {
			a.first = b.first
		}
		if !a.seen || b.last > a.last {
			a.last = b.last
		}
		a.seen = true
	}
	a.otherHost += b.otherHost
	a.otherHits += b.otherHits
	for p := range b.searchPaths {
		a.searchPaths[p] = struct{}{}
	}
	a.searchCut = a.searchCut || b.searchCut
	if limit := 10 * a.opts.MaxPaths; len(a.searchPaths) > limit {
		keep := slices.Sorted(maps.Keys(a.searchPaths))[:limit]
		a.searchPaths = map[string]struct{}{}
		for _, p := range keep {
			a.searchPaths[p] = struct{}{}
		}
		a.searchCut = true
	}
	for i, bb := range b.bots {
		if bb == nil {
			continue
		}
		for len(a.bots) <= i {
			a.bots = append(a.bots, nil)
		}
		if a.bots[i] == nil {
			a.bots[i] = bb
			continue
		}
		a.bots[i].absorb(bb, a.opts.MaxPaths)
	}
}

func (x *botAcc) absorb(y *botAcc, maxPaths int) {
	if y.first < x.first {
		x.first = y.first
	}
	if y.last > x.last {
		x.last = y.last
	}
	x.hits += y.hits
	x.verified += y.verified
	x.failed += y.failed
	x.notChecked += y.notChecked
	x.byDNS += y.byDNS
	for s, n := range y.statuses {
		x.statuses[s] += n
	}
	for day, d := range y.days {
		if mine := x.days[day]; mine != nil {
			mine.Hits += d.Hits
			mine.VerifiedHits += d.VerifiedHits
		} else {
			x.days[day] = d
		}
	}
	x.daysCut = x.daysCut || y.daysCut
	if len(x.days) > MaxDays {
		for _, day := range slices.Sorted(maps.Keys(x.days))[MaxDays:] {
			delete(x.days, day)
		}
		x.daysCut = true
	}
	x.untracked += y.untracked
	x.pagesCut = mergePages(x.pages, y.pages, maxPaths, &x.untracked) || x.pagesCut || y.pagesCut
	var dropped int64
	x.refusedCut = mergePages(x.refused, y.refused, maxRefusedTracked, &dropped) || x.refusedCut || y.refusedCut
}

// mergePages adds src's pages to dst and cuts dst to the limit pages with
// most hits, adding the hits of the others to untracked. It reports a cut.
func mergePages(dst, src map[string]*pageAcc, limit int, untracked *int64) bool {
	for path, p := range src {
		mine := dst[path]
		if mine == nil {
			dst[path] = p
			continue
		}
		mine.hits += p.hits
		mine.verified += p.verified
		for _, s := range p.statuses {
			found := false
			for i := range mine.statuses {
				if mine.statuses[i].status == s.status {
					mine.statuses[i].n += s.n
					found = true
					break
				}
			}
			if !found {
				mine.statuses = append(mine.statuses, s)
			}
		}
	}
	if len(dst) <= limit {
		return false
	}
	paths := slices.SortedFunc(maps.Keys(dst), func(x, y string) int {
		return cmp.Or(cmp.Compare(dst[y].hits, dst[x].hits), cmp.Compare(x, y))
	})
	for _, path := range paths[limit:] {
		*untracked += dst[path].hits
		delete(dst, path)
	}
	return true
}
