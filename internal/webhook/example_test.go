package webhook_test

import (
	"fmt"

	"github.com/geoscan/geoscan/internal/webhook"
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
