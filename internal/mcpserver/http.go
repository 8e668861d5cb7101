package mcpserver

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the API server serves MCP.
const Path = "/api/mcp"

// inProcessURL is the API's base URL for calls served in-process; the host
// is never resolved.
const inProcessURL = "http://geoscan.in-process/api/v1"

// maxRequestBytes bounds an MCP request's body, as the API bounds its own.
const maxRequestBytes = 1 << 20

// HTTPOptions configure NewHTTPHandler.
type HTTPOptions struct {
	// MaxWait bounds create_scan's wait; it should end before the
	// server's write time-out. 0 is DefaultMaxWait.
	MaxWait time.Duration
	// PollInterval is Options.PollInterval.
	PollInterval time.Duration
	Version      string
	Logger       *slog.Logger
}

// NewHTTPHandler serves MCP over streamable HTTP. api is the API server's
// own handler: the tools of each request call it in-process with that
// request's key (RequestKey) and client address, so every call passes the
// API's middleware (address and organization rate limits, authentication,
// validation) as a call over the network would.
//
// The handler is stateless: each POST is a session of its own, so any
// process of a deployment can serve any request and a key is never
// remembered between requests. It does not check the key itself; the
// caller refuses a request without a valid one first (the API server
// answers 401 with the error envelope before any MCP message is read).
func NewHTTPHandler(api http.Handler, opts HTTPOptions) http.Handler {
	cache := mcp.NewSchemaCache()
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		key, _ := RequestKey(r)
		s, err := New(Options{
			APIURL:       inProcessURL,
			Key:          key,
			HTTPClient:   &http.Client{Transport: inProcess{api: api, from: r}},
			MaxWait:      opts.MaxWait,
			PollInterval: opts.PollInterval,
			// A log comes inside the request, whose body is bounded.
			MaxLogBytes: maxRequestBytes,
			Version:     opts.Version,
			SchemaCache: cache,
		})
		if err != nil {
			logger.Error("mcp server", slog.String("error", err.Error()))
			return nil
		}
		return s
	}, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       logger,
		// The protection is against a browser page reaching a local server
		// through DNS rebinding; every request here needs an API key, which
		// such a page does not have, and a reverse proxy on the same host
		// sends the public host name.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        maxRequestBytes,
	})
}

// RequestKey is the API key of an MCP request: `Authorization: Bearer
// geo_…`, as MCP clients send a token, or the API's own X-API-Key header.
// given is false when the request names no key at all; a key given in a
// form that is not one (another scheme, two different keys) is "" with
// given true, which no key lookup accepts.
func RequestKey(r *http.Request) (key string, given bool) {
	var keys []string
	for _, v := range r.Header.Values("Authorization") {
		scheme, token, found := strings.Cut(strings.TrimSpace(v), " ")
		if !found || !strings.EqualFold(scheme, "Bearer") {
			return "", true
		}
		keys = append(keys, strings.TrimSpace(token))
	}
	keys = append(keys, r.Header.Values("X-API-Key")...)
	switch {
	case len(keys) == 0 || (len(keys) == 1 && keys[0] == ""):
		return "", false
	case len(keys) == 1, len(keys) == 2 && keys[0] == keys[1]:
		return keys[0], true
	}
	return "", true
}

// inProcess is an http.RoundTripper that serves requests with a handler in
// this process. A request carries the address and forwarding headers of
// the MCP request it serves, so the API's per-address limit counts the
// real client.
type inProcess struct {
	api  http.Handler
	from *http.Request
}

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.RemoteAddr = t.from.RemoteAddr
	r.RequestURI = r.URL.RequestURI()
	for _, h := range []string{"X-Forwarded-For", "X-Real-Ip"} {
		if v := t.from.Header.Values(h); len(v) > 0 {
			r.Header[h] = v
		}
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	w := &responseBuffer{header: http.Header{}}
	t.api.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if req.Body != nil {
		_ = req.Body.Close()
	}
	return &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          io.NopCloser(bytes.NewReader(w.body.Bytes())),
		ContentLength: int64(w.body.Len()),
		Request:       req,
	}, nil
}

// responseBuffer is the http.ResponseWriter of an in-process request.
type responseBuffer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *responseBuffer) Header() http.Header { return w.header }

func (w *responseBuffer) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *responseBuffer) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(p)
}

// Flush lets handlers that stream flush; the body is read when complete.
func (w *responseBuffer) Flush() {}
