// Package api implements the generated strict-server interface: one file per
// OpenAPI tag (scans, results, schedules, usage, webhooks), with the mappers
// from store types to API types beside them; what they share (keyset pages,
// idempotent creates) has a file of its own.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/jobs/scanner"
	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
	"github.com/geoscan/geoscan/internal/web/auth"
)

// Deps are the handlers' dependencies.
type Deps struct {
	Store  *store.Store
	Logger *slog.Logger
	// Targets checks scan and callback URLs.
	Targets netguard.Policy
	// Webhooks sends test callbacks; built with the outbound TLS settings.
	Webhooks *http.Client
	// Scans queues the run of each new scan.
	Scans *scanner.Queuer
	// Deliveries queues callback redeliveries.
	Deliveries *webhook.Queuer
	// CrawlerLogs queues the analysis of each uploaded access log.
	CrawlerLogs *crawlerlogs.Queuer
	// CrawlerLogMaxBytes is the largest access log accepted, as uploaded;
	// 0 is DefaultCrawlerLogMaxBytes.
	CrawlerLogMaxBytes int64
	// PDFCacheBytes is the memory kept for rendered PDF reports; 0 keeps
	// none.
	PDFCacheBytes int64
	// PDFCJKFont is the font PDFs draw Chinese, Japanese and Korean text
	// in; empty is report.DefaultCJKFont.
	PDFCJKFont string
	// RenderPerMinute is the api_render limit GET /usage reports; the
	// rate limiter enforces it.
	RenderPerMinute int
	// PublicURL is the service's external base URL, which share links
	// start with.
	PublicURL string
	// ShareMaxDays is the longest a share link may work; 0 is
	// DefaultShareMaxDays.
	ShareMaxDays int
	NowFunc      func() time.Time
}

// Server implements api.StrictServerInterface.
type Server struct {
	d    Deps
	pdfs *pdfCache
}

var _ api.StrictServerInterface = (*Server)(nil)

// NewServer returns the handlers over d.
func NewServer(d Deps) *Server {
	if d.NowFunc == nil {
		d.NowFunc = time.Now
	}
	return &Server{d: d, pdfs: newPDFCache(d.PDFCacheBytes)}
}

func (s *Server) now() time.Time { return s.d.NowFunc().UTC() }

// principal returns the caller; its absence is a wiring bug, not a client error.
func principal(ctx context.Context) (auth.Principal, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return auth.Principal{}, errors.New("no principal in request context")
	}
	return p, nil
}

// checkTarget validates a user-supplied URL under the target policy and
// turns a refusal into the given API code.
func (s *Server) checkTarget(ctx context.Context, raw string, code apierror.Code, param string) (*netguard.Target, error) {
	t, err := s.d.Targets.CheckURL(ctx, raw)
	if err != nil {
		var ue *netguard.URLError
		if errors.As(err, &ue) {
			return nil, apierror.New(code, param, "%s", sentence(ue.Reason))
		}
		return nil, fmt.Errorf("check %s: %w", param, err)
	}
	return t, nil
}

// sentence ends a reason with a full stop; it starts with a field name, so
// its case is kept.
func sentence(s string) string {
	if s == "" {
		return s
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
