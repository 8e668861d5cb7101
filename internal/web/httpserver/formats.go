package httpserver

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// uuidFormat is kin-openapi's "uuid" format (openapi3.FormatOfStringForUUIDOfRFC9562:
// an RFC 9562 uuid of versions 1 to 8, the nil uuid or the max uuid)
// checked without its regular expression, which was most of validating a
// request's path. TestUUIDFormatMatchesKinOpenAPI holds the two together.
var uuidFormat = openapi3.NewCallbackValidator(func(s string) error {
	if !isRFC9562UUID(s) {
		// kin-openapi's words for a string its pattern does not match.
		return fmt.Errorf(`string doesn't match pattern "%s"`, openapi3.FormatOfStringForUUIDOfRFC9562)
	}
	return nil
})

func isRFC9562UUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	zeros, fs := 0, 0
	for i := range len(s) {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
			continue
		}
		switch {
		case c == '0':
			zeros++
		case c == 'f' || c == 'F':
			fs++
		case '1' <= c && c <= '9', 'a' <= c && c <= 'e', 'A' <= c && c <= 'E':
		default:
			return false
		}
	}
	if zeros == 32 || fs == 32 {
		return true
	}
	version, variant := s[14], s[19]
	return '1' <= version && version <= '8' &&
		(variant == '8' || variant == '9' || variant == 'a' || variant == 'b' || variant == 'A' || variant == 'B')
}
