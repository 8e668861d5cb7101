package webhook_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/geoscan/geoscan/webhook"
)

// A receiver checks X-GeoScan-Signature over the raw body it got, with the
// webhook_secret returned when the scan was created.
func ExampleVerify() {
	secret := "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw=="
	body := []byte(`{"event":"scan.test","scan_id":"test_0"}`)
	header := "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d"

	fmt.Println(webhook.Verify(secret, body, header) == nil)
	fmt.Println(webhook.Verify(secret, append(body, ' '), header))
	// Output:
	// true
	// signature_mismatch
}

// A complete handler: read the raw bytes first, verify, then parse.
func ExampleVerify_handler() {
	secret := "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw=="
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		if err := webhook.Verify(secret, body, r.Header.Get(webhook.HeaderSignature)); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		// Deduplicate by scan_id (or X-GeoScan-Delivery), queue the work,
		// answer quickly.
		w.WriteHeader(http.StatusNoContent)
	})

	req := httptest.NewRequest(http.MethodPost, "/geoscan", strings.NewReader(`{"event":"scan.test","scan_id":"test_0"}`))
	req.Header.Set(webhook.HeaderSignature, "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d")
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	// Output:
	// 204
}
