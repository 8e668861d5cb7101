package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/netguard"
)

// maxRequestBody caps a request body a page sends (a form post, a fetch
// with a body).
const maxRequestBody = 1 << 20

// intercept answers one paused request: an http(s) request is fetched
// with the guarded client and fulfilled with what came back; anything else
// that would leave the browser is refused.
func (r *pageRun) intercept(ev *cdpfetch.EventRequestPaused) {
	t := r.target.Load()
	ctx := r.ctx
	u := ev.Request.URL
	scheme, _, _ := strings.Cut(u, ":")
	scheme = strings.ToLower(scheme)
	if scheme == "data" || scheme == "blob" {
		// In memory, not the network.
		_, _ = cdp.Call(ctx, t, cdpfetch.ContinueRequest, cdpfetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	main := ev.ResourceType == network.ResourceTypeDocument && string(ev.FrameID) == string(t.TargetID)

	r.mu.Lock()
	r.requests++
	r.inflight++
	r.lastActive = time.Now()
	n, docs := r.requests, r.documents
	if main {
		r.documents++
		docs = r.documents
	}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inflight--
		r.lastActive = time.Now()
		r.mu.Unlock()
	}()

	fail := func(reason network.ErrorReason, why string) {
		r.refuse(u, why)
		if main {
			r.mu.Lock()
			r.mainErr = clip(u, 200) + ": " + why
			r.mu.Unlock()
		}
		_, _ = cdp.Call(ctx, t, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: reason})
	}
	switch {
	case scheme != "http" && scheme != "https":
		fail(network.ErrorReasonBlockedByClient, "only http and https are fetched")
		return
	case main && docs > r.b.cfg.MaxNavigations:
		r.stopWith(fmt.Sprintf("the page redirected more than %d times", r.b.cfg.MaxNavigations))
		fail(network.ErrorReasonBlockedByClient, "too many redirects")
		return
	case n > r.b.cfg.MaxRequests:
		fail(network.ErrorReasonBlockedByClient, fmt.Sprintf("more than %d requests", r.b.cfg.MaxRequests))
		return
	}

	select {
	case r.fetchs <- struct{}{}:
	case <-ctx.Done():
		return
	}
	resp, err := r.b.get(ctx, ev.Request)
	<-r.fetchs
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		reason := network.ErrorReasonFailed
		switch {
		case netguard.IsBlocked(err):
			reason = network.ErrorReasonBlockedByClient
		case errors.Is(err, errTooLarge):
			reason = network.ErrorReasonBlockedByResponse
		}
		fail(reason, err.Error())
		return
	}
	if main {
		r.mu.Lock()
		r.status = resp.status
		r.mu.Unlock()
	}
	_, _ = cdp.Call(ctx, t, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{
		RequestID: ev.RequestID, ResponseCode: int64(resp.status), ResponsePhrase: resp.phrase,
		ResponseHeaders: resp.headers, Body: resp.body,
	})
}

type response struct {
	status  int
	phrase  string
	headers []*cdpfetch.HeaderEntry
	body    []byte
}

var errTooLarge = errors.New("the response is too large")

// hopHeaders are not passed on: the body is handed over whole and
// decoded, and the connection is GeoScan's, not the browser's.
var hopHeaders = map[string]bool{
	"Content-Encoding": true, "Content-Length": true, "Transfer-Encoding": true,
	"Connection": true, "Keep-Alive": true, "Upgrade": true, "Proxy-Connection": true,
	"Alt-Svc": true,
}

// get fetches the browser's request with the guarded client, without
// following redirects, and reads the body decoded and within the limit.
func (b *Browser) get(ctx context.Context, req *network.Request) (*response, error) {
	var body io.Reader
	if req.HasPostData {
		var buf bytes.Buffer
		for _, e := range req.PostDataEntries {
			buf.Write(e.Bytes)
			if buf.Len() > maxRequestBody {
				return nil, errors.New("the request body is too large")
			}
		}
		body = &buf
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, body)
	if err != nil {
		return nil, err
	}
	for k, v := range req.Headers {
		if s, ok := v.(string); ok && !hopHeaders[http.CanonicalHeaderKey(k)] {
			hreq.Header.Set(k, s)
		}
	}
	hreq.Header.Set("Accept-Encoding", "gzip, br, zstd")
	resp, err := b.client.Do(hreq)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, err
	}
	defer resp.Body.Close()
	data, err := readBody(resp, b.cfg.MaxResponseBytes)
	if err != nil {
		return nil, err
	}
	out := &response{status: resp.StatusCode, body: data}
	out.phrase = strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
	if out.phrase == "" {
		out.phrase = "Unknown"
	}
	for k, vs := range resp.Header {
		if hopHeaders[k] {
			continue
		}
		for _, v := range vs {
			out.headers = append(out.headers, &cdpfetch.HeaderEntry{Name: k, Value: v})
		}
	}
	return out, nil
}

// readBody reads a body, decoded as fetch decodes the site's bodies, up to
// limit bytes after decoding.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	r, release, err := fetch.DecodedBody(resp)
	defer release()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if resp.Header.Get("Content-Encoding") == "" && resp.ContentLength > 0 {
		buf.Grow(int(min(resp.ContentLength, limit+1)))
	}
	if _, err := io.Copy(&buf, io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%w (over %s)", errTooLarge, megabytes(limit))
	}
	return buf.Bytes(), nil
}
