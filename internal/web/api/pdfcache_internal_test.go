package api

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/store"
)

func testKey(n byte) pdfKey {
	k := pdfKey{scan: uuid.New(), audience: scoring.Marketing}
	k.digest[0] = n
	return k
}

func testPDF(size int, tag string) renderedPDF {
	return renderedPDF{body: make([]byte, size), etag: `"` + tag + `"`}
}

// Requests for the same PDF while it renders share one render, and get the
// same bytes; the render is then kept.
func TestPDFCacheRendersOnceForConcurrentRequests(t *testing.T) {
	t.Parallel()
	for _, budget := range []int64{1 << 20, 0} {
		t.Run(fmt.Sprintf("budget %d", budget), func(t *testing.T) {
			t.Parallel()
			const requests = 8
			c := newPDFCache(budget)
			var joined sync.WaitGroup
			joined.Add(requests)
			c.joinedFunc = joined.Done
			release := make(chan struct{})
			var renders atomic.Int32
			draw := func() (renderedPDF, error) {
				renders.Add(1)
				<-release
				return testPDF(1000, "a"), nil
			}
			k := testKey(1)
			got := make([]renderedPDF, requests)
			errs := make([]error, requests)
			var done sync.WaitGroup
			for i := range requests {
				done.Add(1)
				go func() {
					defer done.Done()
					got[i], errs[i] = c.render(context.Background(), k, draw)
				}()
			}
			// Every request has joined the render before it may end.
			joined.Wait()
			close(release)
			done.Wait()
			require.EqualValues(t, 1, renders.Load())
			for i, d := range got {
				require.NoError(t, errs[i])
				require.Equal(t, `"a"`, d.etag)
				require.Len(t, d.body, 1000)
			}
			_, kept := c.get(k)
			require.Equal(t, budget > 0, kept)
		})
	}
}

// A request that gives up waiting leaves the render to finish for the
// others, and it is kept.
func TestPDFCacheRequestGivesUp(t *testing.T) {
	t.Parallel()
	c := newPDFCache(1 << 20)
	release := make(chan struct{})
	rendered := make(chan struct{})
	k := testKey(1)
	ctx, cancel := context.WithCancel(context.Background())
	c.joinedFunc = cancel
	_, err := c.render(ctx, k, func() (renderedPDF, error) {
		<-release
		defer close(rendered)
		return testPDF(10, "kept"), nil
	})
	require.ErrorIs(t, err, context.Canceled)
	close(release)
	<-rendered
	c.joinedFunc = nil
	d, err := c.render(context.Background(), k, func() (renderedPDF, error) { return renderedPDF{}, errors.New("rendered twice") })
	require.NoError(t, err)
	require.Equal(t, `"kept"`, d.etag)
}

// A failed or panicking render fails its requests and keeps nothing; the
// next request renders again.
func TestPDFCacheRenderFails(t *testing.T) {
	t.Parallel()
	c := newPDFCache(1 << 20)
	k := testKey(1)
	_, err := c.render(context.Background(), k, func() (renderedPDF, error) { return renderedPDF{}, errors.New("no fonts") })
	require.ErrorContains(t, err, "no fonts")
	_, err = c.render(context.Background(), k, func() (renderedPDF, error) { panic("index out of range") })
	require.ErrorContains(t, err, "panicked: index out of range")
	_, kept := c.get(k)
	require.False(t, kept)
	d, err := c.render(context.Background(), k, func() (renderedPDF, error) { return testPDF(10, "b"), nil })
	require.NoError(t, err)
	require.Equal(t, `"b"`, d.etag)
}

// The cache holds what fits its budget, dropping the least recently used
// first; a PDF larger than the whole budget is not kept.
func TestPDFCacheEvictsLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	one := testPDF(1000, "x").size()
	c := newPDFCache(3 * one)
	a, b, d, e := testKey(1), testKey(2), testKey(3), testKey(4)
	c.put(a, testPDF(1000, "x"))
	c.put(b, testPDF(1000, "x"))
	c.put(d, testPDF(1000, "x"))
	_, ok := c.get(a) // a is now the most recently used; b the least
	require.True(t, ok)
	c.put(e, testPDF(1000, "x"))
	_, ok = c.get(b)
	require.False(t, ok, "the least recently used goes first")
	for _, k := range []pdfKey{a, d, e} {
		_, ok := c.get(k)
		require.True(t, ok)
	}
	require.LessOrEqual(t, c.used, c.budget)

	c.put(testKey(5), testPDF(int(3*one), "huge"))
	_, ok = c.get(a)
	require.True(t, ok, "a PDF beyond the budget evicts nothing")
	require.Equal(t, 3, c.order.Len())
}

// The key changes with everything the bytes are drawn from, and only
// with that.
func TestPDFKey(t *testing.T) {
	t.Parallel()
	var scan store.Scan
	scan.ID = uuid.New()
	base := pdfInputs{
		scan: scan, audience: scoring.Marketing,
		report: store.Report{ScoringVersion: "2026.2", Body: []byte(`{"marketing":{"brand_name":"Café"}}`)},
		triage: &store.Triage{SchemaVersion: "1.0", Body: []byte(`{"marketing":{}}`)},
	}
	same := base
	same.report.Body = append([]byte(nil), base.report.Body...)
	require.Equal(t, base.key(), same.key())

	variants := map[string]func(in *pdfInputs){
		"audience":        func(in *pdfInputs) { in.audience = scoring.Engineering },
		"scan":            func(in *pdfInputs) { in.scan.ID = uuid.New() },
		"report":          func(in *pdfInputs) { in.report.Body = []byte(`{"marketing":{"brand_name":"Cafe"}}`) },
		"scoring version": func(in *pdfInputs) { in.report.ScoringVersion = "2026.1" },
		"no dossier":      func(in *pdfInputs) { in.triage = nil },
		"empty dossier":   func(in *pdfInputs) { in.triage = &store.Triage{SchemaVersion: "1.0"} },
		"dossier": func(in *pdfInputs) {
			in.triage = &store.Triage{SchemaVersion: "1.0", Body: []byte(`{"marketing":{"x":1}}`)}
		},
		"dossier schema": func(in *pdfInputs) { in.triage = &store.Triage{SchemaVersion: "1.1", Body: base.triage.Body} },
		"language":       func(in *pdfInputs) { in.scan.Language = new("de") },
		// The same bytes split differently between the documents.
		"boundary": func(in *pdfInputs) {
			in.report.Body = []byte(`{"marketing":{"brand_name":"Café"}}{`)
			in.triage = &store.Triage{SchemaVersion: "1.0", Body: []byte(`"marketing":{}}`)}
		},
	}
	seen := map[pdfKey]string{base.key(): "base"}
	for name, change := range variants {
		in := base
		change(&in)
		k := in.key()
		prev, dup := seen[k]
		require.False(t, dup, "%s has the key of %s", name, prev)
		seen[k] = name
	}
}

// A scan stored without a language, or with one there is no catalogue
// for, has its PDF in English, under English's key.
func TestPDFLanguage(t *testing.T) {
	t.Parallel()
	var in pdfInputs
	require.Equal(t, "en", in.language())
	in.scan.Language = new("xx")
	require.Equal(t, "en", in.language())
	en := in.key()
	in.scan.Language = new("en")
	require.Equal(t, en, in.key())
	in.scan.Language = new("fr")
	require.Equal(t, "fr", in.language())
	require.NotEqual(t, en, in.key())
}

func TestNotModified(t *testing.T) {
	t.Parallel()
	const etag = `"5d41402abc4b2a76b9719d911017c592"`
	for _, c := range []struct {
		header string
		want   bool
	}{
		{etag, true},
		{"W/" + etag, true},
		{" " + etag + " ", true},
		{`"abc", ` + etag, true},
		{`"abc",W/` + etag + `,"def"`, true},
		{"*", true},
		{`"5d41402abc4b2a76b9719d911017c59"`, false},
		{`"abc"`, false},
		{`5d41402abc4b2a76b9719d911017c592`, false},
		{`"5d41402abc4b2a76b9719d911017c592`, false},
		{`"abc", *`, false},
		{"", false},
	} {
		require.Equal(t, c.want, notModified(&c.header, etag), "If-None-Match: %s", c.header)
	}
	require.False(t, notModified(nil, etag))
}
