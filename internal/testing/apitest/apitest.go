// Package apitest is the HTTP test harness: it boots the whole application
// on a loopback port against a test database, talks to it through the
// generated client or raw requests, and validates every response it receives
// against openapi.yaml so the contract and the code cannot drift.
package apitest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/auth"
)

// Harness is one running application and what talks to it.
type Harness struct {
	t       testing.TB
	BaseURL string // http://127.0.0.1:PORT
	APIURL  string // BaseURL + /api/v1
	Store   *store.Store
	App     *app.App
	HTTP    *http.Client // validates every response
	logs    *syncBuffer
}

// Options change the application under test.
type Options struct {
	// Env defaults to test; AllowPrivateTargets lifts the address rules.
	AllowPrivateTargets bool
	// Hosts maps host names to the addresses the test resolver returns;
	// a name not listed does not resolve.
	Hosts map[string][]string
	// Getenv adds configuration (GEOSCAN_* variables) for this application.
	// With GEOSCAN_RESOLVE among them Hosts is not used: the application
	// resolves through the resolver it builds from that variable, as a
	// dev or test server started by hand does.
	Getenv map[string]string
	// NowFunc replaces the application's clock (the handlers', the scan
	// runner's and the scheduler's), so a test can move through months.
	NowFunc func() time.Time
	// ManualScheduler leaves out the scheduler's periodic job (app.Options).
	ManualScheduler bool
}

// DefaultHosts are public-looking names the tests may scan: they resolve to
// documentation-free public addresses and are never contacted (no scan
// engine runs in API tests).
var DefaultHosts = map[string][]string{
	"example.com":           {"93.184.216.34"},
	"www.example.com":       {"93.184.216.34"},
	"shop.example.co.uk":    {"93.184.216.35"},
	"hooks.example.com":     {"93.184.216.36"},
	"xn--bcher-kva.example": {"93.184.216.37"},
	"inward.example.com":    {"127.0.0.1"},
	"mixed.example.com":     {"93.184.216.38", "10.0.0.1"},
	"v6inward.example.com":  {"::1"},
}

type fakeResolver struct{ hosts map[string][]string }

func (r fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	addrs, ok := r.hosts[strings.TrimSuffix(strings.ToLower(host), ".")]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, 0, len(addrs))
	for _, a := range addrs {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

// Start boots the application on 127.0.0.1:0 against databaseURL and stops
// it when the test ends. At the end it also checks that no API key reached
// the logs.
func Start(t testing.TB, databaseURL string, opts Options) *Harness {
	t.Helper()
	vars := map[string]string{
		"DATABASE_URL":      databaseURL,
		"GEOSCAN_ENV":       "test",
		"GEOSCAN_HTTP_ADDR": "127.0.0.1:0",
		"GEOSCAN_LOG_LEVEL": "debug",
		// API tests drive scans through the API only; tests of the engine
		// ask for workers with GEOSCAN_ROLE=all.
		"GEOSCAN_ROLE": "api",
		// Every test client is 127.0.0.1, and the counters are shared by
		// every harness on the package database, so the per-address limit
		// would add up all tests of a package. Tests of the IP layer set
		// their own limit and send their own address through a trusted
		// proxy; organization limits stay as in production.
		"GEOSCAN_IP_RATE_LIMIT": "1000000",
		// Scans render pages only in the tests that ask for it
		// (GEOSCAN_RENDER=on): what the others find must not depend on
		// whether the machine has a browser.
		"GEOSCAN_RENDER": "off",
	}
	if opts.AllowPrivateTargets {
		vars["GEOSCAN_ALLOW_PRIVATE_TARGETS"] = "true"
	}
	for k, v := range opts.Getenv {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	require.NoError(t, err)

	hosts := opts.Hosts
	if hosts == nil {
		hosts = DefaultHosts
	}
	appOpts := app.Options{Resolver: fakeResolver{hosts: hosts}, NowFunc: opts.NowFunc, ManualScheduler: opts.ManualScheduler}
	if _, ok := opts.Getenv["GEOSCAN_RESOLVE"]; ok {
		appOpts.Resolver = nil
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a, err := app.New(context.Background(), cfg, logger, appOpts)
	require.NoError(t, err)
	require.NoError(t, a.Start(context.Background()))

	h := &Harness{t: t, BaseURL: "http://" + a.Addr(), Store: a.Store(), App: a, logs: logs}
	h.APIURL = h.BaseURL + "/api/v1"
	h.HTTP = &http.Client{Timeout: 30 * time.Second, Transport: &validatingTransport{t: t, base: http.DefaultTransport, router: specRouter(t)}}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, a.Shutdown(ctx))
		RequireNoKeysIn(t, logs.String())
	})
	return h
}

// Attach is a Harness for a GeoScan already serving at baseURL in another
// process (internal/testing/binarytest), with its own store on databaseURL for
// setting up organizations and keys and reading rows. Responses are
// validated as Start's are; App is nil and Logs empty (the process keeps
// its own output).
func Attach(t testing.TB, baseURL, databaseURL string) *Harness {
	t.Helper()
	pool, err := store.NewPool(context.Background(), databaseURL)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	h := &Harness{t: t, BaseURL: baseURL, APIURL: baseURL + "/api/v1", Store: store.New(pool), logs: &syncBuffer{}}
	h.HTTP = &http.Client{Timeout: 30 * time.Second, Transport: &validatingTransport{t: t, base: http.DefaultTransport, router: specRouter(t)}}
	return h
}

var fullKey = regexp.MustCompile(`geo_[0-9A-Za-z]{38}`)

// RequireNoKeysIn fails when text contains anything shaped like a full key.
func RequireNoKeysIn(t testing.TB, text string) {
	t.Helper()
	require.Empty(t, fullKey.FindAllString(text, 5), "an API key appeared in the logs")
}

// Logs returns what the application logged so far.
func (h *Harness) Logs() string { return h.logs.String() }

// Org is an organization with one API key and a client that uses it.
type Org struct {
	ID     uuid.UUID
	Key    string
	KeyID  uuid.UUID
	Client *client.ClientWithResponses
}

// NewOrg creates an organization on plan with an API key.
func (h *Harness) NewOrg(t testing.TB, plan string, active bool) Org {
	t.Helper()
	ctx := context.Background()
	o, err := h.Store.CreateOrganization(ctx, "org-"+uuid.NewString()[:8], plan, active)
	require.NoError(t, err)
	key, row := h.NewKey(t, o.ID, "test")
	c, err := client.NewClientWithResponses(h.APIURL, client.WithHTTPClient(h.HTTP),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", key)
			return nil
		}))
	require.NoError(t, err)
	return Org{ID: o.ID, Key: key, KeyID: row.ID, Client: c}
}

// NewKey issues a key for an organization and stores it, as
// `geoscan key create` does; it returns the key and its stored row.
func (h *Harness) NewKey(t testing.TB, orgID uuid.UUID, name string) (string, store.APIKey) {
	t.Helper()
	return h.NewMemberKey(t, orgID, nil, name)
}

// NewMemberKey is NewKey for a key that belongs to a member, as
// `geoscan key create --member` makes.
func (h *Harness) NewMemberKey(t testing.TB, orgID uuid.UUID, memberID *uuid.UUID, name string) (string, store.APIKey) {
	t.Helper()
	k, err := auth.Issue()
	require.NoError(t, err)
	row, err := h.Store.CreateAPIKey(context.Background(), store.NewAPIKey{OrgID: orgID, MemberID: memberID, Name: name, Hash: k.Hash, DisplayPrefix: k.Display})
	require.NoError(t, err)
	return k.Key, row
}

// Response is a raw response, already validated against the contract.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Trailer holds the HTTP trailers sent after the body.
	Trailer http.Header
}

// JSON decodes the body into v.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), "body: %s", r.Body)
}

// Error decodes the error envelope.
func (r Response) Error(t testing.TB) api.Error {
	t.Helper()
	var e api.Error
	r.JSON(t, &e)
	return e
}

// RequireError asserts status and error code (and param when not "").
func (r Response) RequireError(t testing.TB, status int, code string, param string) {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	e := r.Error(t)
	require.Equal(t, code, e.Error.Code, "body: %s", r.Body)
	if param != "" {
		require.NotNil(t, e.Error.Param, "body: %s", r.Body)
		require.Equal(t, param, *e.Error.Param, "body: %s", r.Body)
	}
}

// Do sends a raw request; key "" sends no X-API-Key header. A body that is
// a string or []byte is sent as is, anything else as JSON.
func (h *Harness) Do(t testing.TB, method, path, key string, body any, headers ...string) Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		require.NoError(t, err)
		rd = bytes.NewReader(j)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = h.BaseURL + path
	}
	req, err := http.NewRequestWithContext(context.Background(), method, url, rd)
	require.NoError(t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		// Content-Type replaces the default; other headers add up, so a
		// test can send a header twice.
		if http.CanonicalHeaderKey(headers[i]) == "Content-Type" {
			req.Header.Set(headers[i], headers[i+1])
			continue
		}
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := h.HTTP.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b, Trailer: resp.Trailer}
}

// DoRaw writes raw, a whole HTTP/1.1 request as bytes, on a new connection
// and reads one response, for requests no HTTP client would send (no Host
// header, malformed chunked bodies, oversized headers). The response is
// validated like any other; an answer net/http gives before any route is
// chosen (malformed_request, and the 431 of its own header limit) is checked
// against the error envelope only, as it belongs to no operation. With
// halfClose the client then closes its side for writing, as a client that
// gave up sending does.
func (h *Harness) DoRaw(t testing.TB, raw []byte, halfClose bool) Response {
	t.Helper()
	var d net.Dialer
	conn, err := d.DialContext(context.Background(), "tcp", strings.TrimPrefix(h.BaseURL, "http://"))
	require.NoError(t, err)
	defer func() { _ = conn.Close() }()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	// The server may answer and close before reading all of a large request.
	go func() {
		if _, err := conn.Write(raw); err == nil && halfClose {
			_ = conn.(*net.TCPConn).CloseWrite()
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)

	req, perr := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	var env api.Error
	beforeRouting := resp.StatusCode >= 400 && json.Unmarshal(body, &env) == nil &&
		(env.Error.Code == "malformed_request" || (resp.StatusCode == http.StatusRequestHeaderFieldsTooLarge && perr != nil))
	v := &validatingTransport{t: t, router: specRouter(t)}
	switch {
	case beforeRouting || perr != nil:
		if err := validateEnvelope(body); err != nil {
			t.Errorf("raw request answered %d without the envelope: %v\nbody: %.2000s", resp.StatusCode, err, body)
		}
	default:
		req.URL.Scheme, req.URL.Host = "http", req.Host
		if err := v.validate(req, resp, body); err != nil {
			t.Errorf("response to raw %s %s (status %d) breaks openapi.yaml: %v\nbody: %.2000s", req.Method, req.URL.Path, resp.StatusCode, err, body)
		}
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

func specRouter(t testing.TB) routers.Router {
	t.Helper()
	spec, err := api.GetSpec()
	require.NoError(t, err)
	r, err := gorillamux.NewRouter(spec)
	require.NoError(t, err)
	return r
}

// validatingTransport checks each response against openapi.yaml: the status
// must be documented for the operation and the body and headers must match
// it; responses outside the documented routes must be the error envelope.
type validatingTransport struct {
	t      testing.TB
	base   http.RoundTripper
	router routers.Router
}

func (v *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := v.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err := v.validate(req, resp, body); err != nil {
		v.t.Errorf("response to %s %s (status %d) breaks openapi.yaml: %v\nbody: %.2000s", req.Method, req.URL.Path, resp.StatusCode, err, body)
	}
	return resp, nil
}

func (v *validatingTransport) validate(req *http.Request, resp *http.Response, body []byte) error {
	if !strings.HasPrefix(req.URL.Path, "/api/v1/") || strings.HasPrefix(req.URL.Path, "/api/v1/openapi.") {
		return nil // docs and health endpoints are not part of the contract
	}
	if resp.Header.Get("X-Request-Id") == "" {
		return fmt.Errorf("no X-Request-Id header")
	}
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		// Not an operation of the contract: only the error envelope may come back.
		if resp.StatusCode < 400 {
			return fmt.Errorf("status %d for a path or method the contract does not have", resp.StatusCode)
		}
		return validateEnvelope(body)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: resp.StatusCode,
		Header: resp.Header,
		Body:   io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			ExcludeResponseBody:   strings.HasPrefix(resp.Header.Get("Content-Type"), "application/pdf"),
		},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return err
	}
	if resp.StatusCode >= 400 {
		return validateEnvelope(body)
	}
	return nil
}

var (
	envelopeOnce   sync.Once
	envelopeSchema *openapi3.Schema
)

func validateEnvelope(body []byte) error {
	envelopeOnce.Do(func() {
		spec, err := api.GetSpec()
		if err == nil {
			envelopeSchema = spec.Components.Schemas["Error"].Value
		}
	})
	if envelopeSchema == nil {
		return fmt.Errorf("no Error schema in the contract")
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("error body is not JSON: %w", err)
	}
	return envelopeSchema.VisitJSON(v)
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
