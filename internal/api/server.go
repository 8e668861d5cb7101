// Package api implements the generated strict-server interface: one file per
// OpenAPI tag (scans, results, schedules, usage, webhooks), with the mappers
// from store types to API types beside them; what they share (keyset pages,
// idempotent creates) has a file of its own.
package api

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/auth"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/scanner"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/webhook"
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
	NowFunc    func() time.Time
}

// Server implements api.StrictServerInterface.
type Server struct {
	d Deps
}

var _ api.StrictServerInterface = (*Server)(nil)

// NewServer returns the handlers over d.
func NewServer(d Deps) *Server {
	if d.NowFunc == nil {
		d.NowFunc = time.Now
	}
	return &Server{d: d}
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

func encodeCursor(c store.Cursor) string {
	raw := strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "." + c.ID.String()
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// Cursors carry a row's creation time; no row of this service was created
// outside these bounds, and a time outside them must not reach PostgreSQL,
// whose timestamps end at 4713 BC and 294276 AD.
var (
	minCursorTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxCursorTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

// decodeCursor accepts exactly what encodeCursor produces: the canonical
// encoding of a time within the bounds above and a UUID; anything else is
// 422 invalid_parameter naming cursor.
func decodeCursor(s *string) (*store.Cursor, error) {
	if s == nil || *s == "" {
		return nil, nil
	}
	bad := apierror.New(apierror.CodeInvalidParameter, "cursor", "cursor is not a cursor this API returned.")
	raw, err := base64.RawURLEncoding.DecodeString(*s)
	if err != nil {
		return nil, bad
	}
	micros, id, ok := strings.Cut(string(raw), ".")
	if !ok {
		return nil, bad
	}
	n, err := strconv.ParseInt(micros, 10, 64)
	if err != nil {
		return nil, bad
	}
	u, err := uuid.Parse(id)
	if err != nil {
		return nil, bad
	}
	c := store.Cursor{CreatedAt: time.UnixMicro(n).UTC(), ID: u}
	if c.CreatedAt.Before(minCursorTime) || c.CreatedAt.After(maxCursorTime) || encodeCursor(c) != *s {
		return nil, bad
	}
	return &c, nil
}

func pageLimit(l *int) int {
	if l == nil {
		return 20
	}
	return *l
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
