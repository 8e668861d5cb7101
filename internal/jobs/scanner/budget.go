package scanner

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"
)

// MemoryBudget is the memory one worker process lets the scans it runs
// hold at once for the pages they parse and judge (audit.Options.Reserve:
// a scan asks before it parses its homepage, by the homepage's size, and
// again for audit.MemoryEstimate of the site when its key pages need
// more; a whole-site audit then asks for each page it crawls, by the
// page's size, and gives it back once the page is judged). A scan whose
// estimate does not fit waits, in the order the scans asked, until
// earlier ones release theirs or its budget of time ends; meanwhile it
// holds only what it fetched, which the fetch limits bound, and none of
// the budget, so waiting scans never keep each other waiting, and a scan
// beside a long whole-site audit waits for a page, not for the audit.
type MemoryBudget struct {
	sem  *semaphore.Weighted
	size int64
}

// NewMemoryBudget is a budget of size bytes, at least one.
func NewMemoryBudget(size int64) *MemoryBudget {
	size = max(size, 1)
	return &MemoryBudget{sem: semaphore.NewWeighted(size), size: size}
}

// Size is the budget in bytes.
func (b *MemoryBudget) Size() int64 { return b.size }

// Reserve waits until bytes fit in the budget and holds them until release
// is called (more than once is harmless). An estimate larger than the
// whole budget is held as the whole budget: that scan runs alone rather
// than never. Its error is ctx's, when ctx ends first.
func (b *MemoryBudget) Reserve(ctx context.Context, bytes int64) (release func(), err error) {
	n := min(max(bytes, 1), b.size)
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { b.sem.Release(n) }) }, nil
}
