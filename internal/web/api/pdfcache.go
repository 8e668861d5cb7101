package api

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/uuid"
	"golang.org/x/sync/singleflight"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/branding"
	"github.com/geoscan/geoscan/internal/i18n"
	"github.com/geoscan/geoscan/internal/store"
)

// A PDF report costs tens of milliseconds of CPU to render and a
// microsecond to copy, and the same scan's PDF is downloaded again and
// again (by the person who shares it, by dashboards, by retries). So each
// process keeps the PDFs it rendered, keyed by everything they are drawn
// from, and renders a missing one once however many requests ask for it
// at the same time.

// pdfInputs are everything one PDF is drawn from: the stored report, the
// stored dossier or its absence (not computed yet, or being recomputed:
// the PDF then says so), the audience, the scan's language, the
// organization's branding, and the renderer's own code, which draws the
// grade scale and ring weights of this process's rubric.
type pdfInputs struct {
	scan     store.Scan
	audience scoring.Audience
	report   store.Report
	triage   *store.Triage
	brand    store.Branding
	// cjkFont is the font CJK text is drawn in, the same for every PDF
	// of this process.
	cjkFont string
}

// pdfKey names one rendered PDF. The digest covers the stored documents
// byte for byte, so a report or dossier stored again (a recomputed
// dossier, a dossier that arrives after the first download) is another
// key; the PDF of the old one is never served for it and ages out.
type pdfKey struct {
	scan     uuid.UUID
	audience scoring.Audience
	language string
	digest   [sha256.Size]byte
}

// language is the language the scan's report is written in, and its PDF:
// the one stored with the scan, English for a scan stored without one.
func (in pdfInputs) language() string {
	if in.scan.Language != nil && i18n.IsSupported(*in.scan.Language) {
		return *in.scan.Language
	}
	return i18n.English
}

func (in pdfInputs) key() pdfKey {
	h := sha256.New()
	field := func(b []byte) {
		// Length-prefixed, so no two sequences of fields read the same.
		_ = binary.Write(h, binary.BigEndian, uint64(len(b)))
		h.Write(b)
	}
	field([]byte(scoring.Version))
	field([]byte(in.report.ScoringVersion))
	field(in.report.Body)
	if in.triage == nil {
		field(nil)
	} else {
		field([]byte{1})
		field([]byte(in.triage.SchemaVersion))
		field(in.triage.Body)
	}
	// A branding set again is another PDF, even with the same fields: its
	// time is enough to tell, and cheaper than hashing the logo.
	field(binary.BigEndian.AppendUint64(nil, uint64(in.brand.UpdatedAt.UnixNano())))
	k := pdfKey{scan: in.scan.ID, audience: in.audience, language: in.language()}
	h.Sum(k.digest[:0])
	return k
}

// renderedPDF is a PDF as it is sent.
type renderedPDF struct {
	body []byte
	// etag is the strong entity tag of body: a hash of its bytes, so it
	// is true whichever process rendered it and whatever the renderer's
	// version.
	etag string
	// disposition names the file after the scan's domain and the day the
	// site was scanned, the date the document's cover prints, so the same
	// document keeps its name whenever it is downloaded.
	disposition string
}

func (in pdfInputs) render() (renderedPDF, error) {
	var stored report.Stored
	if err := json.Unmarshal(in.report.Body, &stored); err != nil {
		return renderedPDF{}, fmt.Errorf("decode report %s: %w", in.scan.ID, err)
	}
	r := stored.For(in.audience)
	var dossier *api.TriageDossier
	if in.triage != nil {
		var t triage.Stored
		if err := json.Unmarshal(in.triage.Body, &t); err != nil {
			return renderedPDF{}, fmt.Errorf("decode triage %s: %w", in.scan.ID, err)
		}
		d := t.For(in.audience)
		dossier = &d
	}
	var buf bytes.Buffer
	look := branding.Brand(in.brand)
	if err := report.RenderPDFWith(&buf, r, dossier, report.PDFOptions{Brand: look, Language: in.language(), CJKFont: in.cjkFont}); err != nil {
		return renderedPDF{}, fmt.Errorf("render pdf of %s: %w", in.scan.ID, err)
	}
	scanned := r.GeneratedAt
	if scanned.IsZero() && in.scan.CompletedAt != nil {
		scanned = *in.scan.CompletedAt
	}
	sum := sha256.Sum256(buf.Bytes())
	return renderedPDF{
		body:        buf.Bytes(),
		etag:        `"` + hex.EncodeToString(sum[:16]) + `"`,
		disposition: fmt.Sprintf(`attachment; filename="%s-%s-%s.pdf"`, filePrefix(look), in.scan.Domain, scanned.UTC().Format("2006-01-02")),
	}, nil
}

// filePrefix starts a PDF's file name: GeoScan's, or a neutral one when the
// brand leaves GeoScan out.
func filePrefix(b report.Brand) string {
	if b.HideGeoScan {
		return "geo-audit"
	}
	return "geoscan"
}

// pdfEntryOverhead approximates what an entry holds beside its bytes (the
// key, the list element, the map slot, the strings' headers).
const pdfEntryOverhead = 256

func (d renderedPDF) size() int64 {
	return int64(len(d.body)+len(d.etag)+len(d.disposition)) + pdfEntryOverhead
}

// pdfCache keeps rendered PDFs within a budget of bytes, dropping the least
// recently used first, and renders each missing one once for all the
// requests that ask for it while it is rendered.
type pdfCache struct {
	budget int64
	flight singleflight.Group

	mu    sync.Mutex
	used  int64
	order *list.List // of *pdfEntry, most recently used first
	items map[pdfKey]*list.Element

	// joinedFunc, when set, runs after a request has joined a render (as
	// its first caller or a later one); a test seam.
	joinedFunc func()
}

type pdfEntry struct {
	key pdfKey
	pdf renderedPDF
}

// newPDFCache returns a cache of budget bytes; 0 keeps nothing, and
// requests for the same PDF at the same time still share one render.
func newPDFCache(budget int64) *pdfCache {
	return &pdfCache{budget: budget, order: list.New(), items: map[pdfKey]*list.Element{}}
}

// get returns the PDF of k if it is kept. The bytes are shared: callers
// only read them.
func (c *pdfCache) get(k pdfKey) (renderedPDF, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return renderedPDF{}, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*pdfEntry).pdf, true
}

func (c *pdfCache) put(k pdfKey, d renderedPDF) {
	size := d.size()
	if size > c.budget {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	for c.used+size > c.budget {
		oldest := c.order.Back()
		e := c.order.Remove(oldest).(*pdfEntry)
		delete(c.items, e.key)
		c.used -= e.pdf.size()
	}
	c.items[k] = c.order.PushFront(&pdfEntry{key: k, pdf: d})
	c.used += size
}

// render returns the PDF of k, rendering it with draw unless it is kept or
// being rendered for another request, in which case it waits for that
// render. A request that gives up (ctx) leaves the render running for the
// others; its PDF is kept either way.
func (c *pdfCache) render(ctx context.Context, k pdfKey, draw func() (renderedPDF, error)) (renderedPDF, error) {
	name := k.scan.String() + "/" + string(k.audience) + "/" + k.language + "/" + string(k.digest[:])
	ch := c.flight.DoChan(name, func() (v any, err error) {
		if d, ok := c.get(k); ok {
			return d, nil // rendered by a flight that ended after the caller looked
		}
		// A panic here would take the whole process down (singleflight
		// re-raises it where no handler can recover it): it fails the
		// requests waiting for this render instead.
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("render pdf of %s panicked: %v", k.scan, p)
			}
		}()
		d, err := draw()
		if err != nil {
			return nil, err
		}
		c.put(k, d)
		return d, nil
	})
	if c.joinedFunc != nil {
		c.joinedFunc()
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			return renderedPDF{}, r.Err
		}
		return r.Val.(renderedPDF), nil
	case <-ctx.Done():
		return renderedPDF{}, ctx.Err()
	}
}

// notModified says whether an If-None-Match header names etag, by the weak
// comparison RFC 9110 prescribes for it (W/ ignored); "*" names any.
func notModified(ifNoneMatch *string, etag string) bool {
	if ifNoneMatch == nil {
		return false
	}
	s := strings.TrimSpace(*ifNoneMatch)
	if s == "*" {
		return true
	}
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		s = strings.TrimPrefix(s, "W/")
		if !strings.HasPrefix(s, `"`) {
			return false // not a list of entity tags
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return false
		}
		if s[:end+2] == etag {
			return true
		}
		s = s[end+2:]
	}
	return false
}
