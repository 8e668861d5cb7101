package api

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/geoscan/geoscan/gen/api"
)

// scanListResponse is the 200 of GET /scans. The generated response
// encodes with encoding/json into a fresh buffer and writes it without a
// length, so a page of scans (about 10 KiB) went out chunked, in several
// writes; this one encodes with appendScanList into a pooled buffer and
// sends one body with its Content-Length.
type scanListResponse api.ScanList

func (r scanListResponse) VisitListScansResponse(w http.ResponseWriter) error {
	buf := bodyBuffers.Get().(*[]byte) //nolint:forcetypeassert // the pool holds nothing else
	defer putBodyBuffer(buf)
	b, err := appendScanList((*buf)[:0], api.ScanList(r))
	if err != nil {
		return err
	}
	*buf = append(b, '\n') // as json.Encoder ends a value
	return writeBody(w, http.StatusOK, *buf)
}

var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// putBodyBuffer returns a buffer to the pool unless one large response
// made it too big to keep.
func putBodyBuffer(b *[]byte) {
	if cap(*b) <= 1<<20 {
		bodyBuffers.Put(b)
	}
}

// writeBody writes a JSON body in one write, with its length.
func writeBody(w http.ResponseWriter, status int, body []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}
