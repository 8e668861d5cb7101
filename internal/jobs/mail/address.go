package mail

import (
	"errors"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxAddressLen is the longest address accepted (RFC 5321's path limit
// less the angle brackets).
const MaxAddressLen = 254

// ErrAddress describes an address that cannot receive GeoScan's emails.
var ErrAddress = errors.New("must be an email address such as owner@example.com")

// ParseAddress accepts one bare address (local@domain), without a display
// name, comments or surrounding spaces, since it is written into a header
// as given: a line break or a second address can never get through.
func ParseAddress(s string) (string, error) {
	if s == "" || len(s) > MaxAddressLen || !utf8.ValidString(s) {
		return "", ErrAddress
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return "", ErrAddress
		}
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", ErrAddress
	}
	local, domain, ok := strings.Cut(a.Address, "@")
	if !ok || local == "" || domain == "" || strings.HasPrefix(domain, "[") {
		return "", ErrAddress
	}
	return a.Address, nil
}
