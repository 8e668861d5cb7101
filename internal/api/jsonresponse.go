package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/geoscan/geoscan/gen/api"
)

// scanListResponse is the 200 of GET /scans. The generated response
// encodes into a fresh buffer and writes it without a length, so a page of
// scans (about 10 KiB) went out chunked, in several writes; this one reuses
// buffers and sends one body with its Content-Length.
type scanListResponse api.ScanList

func (r scanListResponse) VisitListScansResponse(w http.ResponseWriter) error {
	return writeJSON(w, http.StatusOK, api.ScanList(r))
}

var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON writes v as the JSON body of a response, as the generated
// responses do (same encoder, same trailing newline), with its length.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	buf := jsonBuffers.Get().(*bytes.Buffer) //nolint:forcetypeassert // the pool holds nothing else
	defer func() {
		if buf.Cap() <= 1<<20 {
			buf.Reset()
			jsonBuffers.Put(buf)
		}
	}()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}
