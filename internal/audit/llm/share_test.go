package llm_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// Identical requests of one scan are asked once and all get the same
// result, cached flag included, whichever comes first: with a cache shared
// by the scan, the second would otherwise read the first's answer as
// cached or not depending on timing.
func TestIdenticalRequestsOfAScanAreAskedOnce(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(scripted.Call) scripted.Reply {
		return scripted.Reply{Text: "Acme is a bakery.", Delay: 20 * time.Millisecond}
	})
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	layer := &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: llm.DefaultLimits, Cache: &llm.MemoryCache{}}
	s := layer.Session(time.Now())
	req := llm.Request{Prompt: "Judge these descriptions.", Temperature: llm.Zero()}

	results := make([]llm.Result, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			if i >= 4 {
				time.Sleep(40 * time.Millisecond) // after the first has been cached
			}
			results[i] = s.Ask(context.Background(), "judge", e, req, 0)
		})
	}
	wg.Wait()
	require.Equal(t, 1, srv.Calls())
	for _, r := range results {
		require.NoError(t, r.Err)
		require.Equal(t, results[0], r)
	}
	require.False(t, results[0].Cached, "nothing was cached before the scan")
	u := s.Usage().ByPurpose["judge"]
	require.Equal(t, 1, u.Calls)
	require.Equal(t, 7, u.CacheHits)

	// Another run of the same prompt is its own request.
	r := s.Ask(context.Background(), "judge", e, req, 1)
	require.NoError(t, r.Err)
	require.Equal(t, 2, srv.Calls())
}
