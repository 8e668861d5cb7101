package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/geoscan/geoscan/gen/api"
)

// The 200s of the list operations and of reading a scan. A generated
// response encodes into a fresh buffer and writes it without a length, so
// a page (about 10 KiB of scans) went out chunked, in more writes than its
// size needs; these encode into a pooled buffer and send one body with its
// Content-Length. Scans are encoded by appendScan, the others by
// encoding/json as the generated responses do.
type (
	scanResponse            api.Scan
	scanListResponse        api.ScanList
	scheduleListResponse    api.ScheduleList
	scheduleRunListResponse api.ScheduleRunList
	deliveryListResponse    api.WebhookDeliveryList
)

func (r scanResponse) VisitGetScanResponse(w http.ResponseWriter) error {
	buf := bodyBuffers.Get().(*[]byte) //nolint:forcetypeassert // the pool holds nothing else
	defer putBodyBuffer(buf)
	s := api.Scan(r)
	b, err := appendScan((*buf)[:0], &s)
	if err != nil {
		return err
	}
	*buf = append(b, '\n') // as json.Encoder ends a value
	return writeBody(w, *buf)
}

func (r scanListResponse) VisitListScansResponse(w http.ResponseWriter) error {
	buf := bodyBuffers.Get().(*[]byte) //nolint:forcetypeassert // the pool holds nothing else
	defer putBodyBuffer(buf)
	b, err := appendScanList((*buf)[:0], api.ScanList(r))
	if err != nil {
		return err
	}
	*buf = append(b, '\n') // as json.Encoder ends a value
	return writeBody(w, *buf)
}

func (r scheduleListResponse) VisitListSchedulesResponse(w http.ResponseWriter) error {
	return writeJSON(w, api.ScheduleList(r))
}

func (r scheduleRunListResponse) VisitListScheduleRunsResponse(w http.ResponseWriter) error {
	return writeJSON(w, api.ScheduleRunList(r))
}

func (r deliveryListResponse) VisitListScanDeliveriesResponse(w http.ResponseWriter) error {
	return writeJSON(w, api.WebhookDeliveryList(r))
}

var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// putBodyBuffer returns a buffer to the pool unless one large response
// made it too big to keep.
func putBodyBuffer(b *[]byte) {
	if cap(*b) <= 1<<20 {
		bodyBuffers.Put(b)
	}
}

// appendWriter appends what is written to a byte slice.
type appendWriter struct{ b *[]byte }

func (a appendWriter) Write(p []byte) (int, error) {
	*a.b = append(*a.b, p...)
	return len(p), nil
}

// writeJSON writes v as the JSON body of a 200, as the generated responses
// do (same encoder, same trailing newline), with its length.
func writeJSON(w http.ResponseWriter, v any) error {
	buf := bodyBuffers.Get().(*[]byte) //nolint:forcetypeassert // the pool holds nothing else
	defer putBodyBuffer(buf)
	*buf = (*buf)[:0]
	if err := json.NewEncoder(appendWriter{buf}).Encode(v); err != nil {
		return err
	}
	return writeBody(w, *buf)
}

// jsonContentType is shared by every response: net/http only reads a
// header's values, and Header.Add would append to a copy (the slice is
// full).
var jsonContentType = []string{"application/json"}

// writeBody writes the JSON body of a 200 in one write, with its length.
func writeBody(w http.ResponseWriter, body []byte) error {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}
