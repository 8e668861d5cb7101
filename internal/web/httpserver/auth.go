package httpserver

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/google/uuid"
	oapimw "github.com/oapi-codegen/echo-middleware"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
	"github.com/geoscan/geoscan/internal/web/auth"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

const principalKey = "geoscan.principal"

// apiKeyHeader is X-API-Key as net/http keys a request's headers.
var apiKeyHeader = http.CanonicalHeaderKey("X-API-Key")

type authenticator struct {
	store  *store.Store
	logger *slog.Logger
	// limits applies the organization rate limit; nil turns it off.
	limits *ratelimit.Guard
	cache  *AuthCache

	mu      sync.Mutex
	touched map[uuid.UUID]time.Time
}

func errInvalidKey() *apierror.Error {
	return apierror.New(apierror.CodeAPIKeyInvalid, "", "The API key is not valid.")
}

// authenticate is kin-openapi's AuthenticationFunc. It runs before parameter
// and body validation, so an unauthenticated request is always a 401.
// Malformed keys are refused without touching the database; a well-formed
// key is looked up by its SHA-256 (in the AuthCache, else under a unique
// index), so no comparison of secret bytes happens in this process. The 401 body is the same for
// malformed, unknown and revoked keys.
func (a *authenticator) authenticate(ctx context.Context, in *openapi3filter.AuthenticationInput) error {
	r := in.RequestValidationInput.Request
	values := r.Header[apiKeyHeader]
	if len(values) == 0 || (len(values) == 1 && values[0] == "") {
		return apierror.New(apierror.CodeAPIKeyRequired, "", "An API key is required in the X-API-Key header (keys in the query string are not accepted).")
	}
	if len(values) > 1 {
		return errInvalidKey()
	}
	key := values[0]
	if auth.ParseKey(key) != nil {
		return errInvalidKey()
	}
	hash := auth.HashKey(key)
	// The validator's ctx is not the request's; the lookup should end
	// when the client goes away, so it uses the request context.
	p, err := a.cache.lookupKey(r.Context(), hash) //nolint:contextcheck // see above
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errInvalidKey()
		}
		return err
	}
	if p.RevokedAt != nil {
		return errInvalidKey()
	}
	// ctx is the validator's own context; it carries the Echo context.
	ec := oapimw.GetEchoContext(ctx)
	if ec == nil {
		return errors.New("authenticate: no echo context")
	}
	principal := auth.Principal{KeyID: p.KeyID, OrgID: p.OrgID, MemberID: p.MemberID}
	if a.limits != nil {
		if err := orgRateLimit(r.Context(), ec, a.limits, a.cache, principal); err != nil { //nolint:contextcheck // request context, as above
			return err
		}
	}
	// Only a request that passed the limit records the key's use.
	a.touch(r.Context(), p) //nolint:contextcheck // request context, as above
	ec.Set(principalKey, principal)
	return nil
}

// touch records last use at most once a minute per key and process, off the
// request's path.
func (a *authenticator) touch(ctx context.Context, p store.Principal) {
	if p.LastUsedAt != nil && time.Since(*p.LastUsedAt) < time.Minute {
		return
	}
	k := p.KeyID
	a.mu.Lock()
	if a.touched == nil {
		a.touched = map[uuid.UUID]time.Time{}
	}
	if last, ok := a.touched[k]; ok && time.Since(last) < time.Minute {
		a.mu.Unlock()
		return
	}
	a.touched[k] = time.Now()
	a.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := a.store.TouchAPIKey(ctx, p.KeyID); err != nil {
			a.logger.Warn("record key use", slog.String("error", err.Error()))
		}
	}()
}
