// Package webhook owns scan callbacks on the sending side: per-scan
// secrets, the payload, one signed attempt (Send), and durable delivery as
// River jobs with the retry schedule and the attempt log (DeliverArgs,
// Worker). Signing itself lives in the public package
// github.com/geoscan/geoscan/webhook, which receivers import too, so both
// sides share one implementation.
package webhook

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/geoscan/geoscan/webhook"
)

// SecretPrefix starts every webhook secret.
const SecretPrefix = webhook.SecretPrefix

// NewSecret returns whsec_ + standard base64 of 32 random bytes: valid both
// as a plain HMAC key and under Standard Webhooks' reading of whsec_ keys.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b), nil
}
