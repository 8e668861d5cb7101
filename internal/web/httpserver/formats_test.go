package httpserver

import (
	"regexp"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

var kinUUID = regexp.MustCompile(openapi3.FormatOfStringForUUIDOfRFC9562)

func requireSameAsKinOpenAPI(t *testing.T, s string) {
	t.Helper()
	want := kinUUID.MatchString(s)
	require.Equal(t, want, isRFC9562UUID(s), "%q", s)
	if err := uuidFormat.Validate(s); want {
		require.NoError(t, err)
	} else {
		require.EqualError(t, err, `string doesn't match pattern "`+openapi3.FormatOfStringForUUIDOfRFC9562+`"`)
	}
}

func TestUUIDFormatMatchesKinOpenAPI(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		uuid.NewString(), uuid.Must(uuid.NewV7()).String(), "40DBC2AE-3526-4EBD-94B1-28CEBE5D80A8",
		uuid.Nil.String(), "ffffffff-ffff-ffff-ffff-ffffffffffff", "FFFFFFFF-ffff-FFFF-ffff-FFFFFFFFFFFF",
		"00000000-0000-0000-0000-000000000001", "ffffffff-ffff-ffff-ffff-fffffffffffe",
		"40dbc2ae-3526-0ebd-94b1-28cebe5d80a8", "40dbc2ae-3526-9ebd-94b1-28cebe5d80a8",
		"40dbc2ae-3526-4ebd-c4b1-28cebe5d80a8", "40dbc2ae-3526-4ebd-74b1-28cebe5d80a8",
		"40dbc2ae35264ebd94b128cebe5d80a8", "{40dbc2ae-3526-4ebd-94b1-28cebe5d80a8}",
		"40dbc2ae-3526-4ebd-94b1-28cebe5d80a", "40dbc2ae-3526-4ebd-94b1-28cebe5d80a8 ",
		"40dbc2ae-3526-4ebd-94b1_28cebe5d80a8", "g0dbc2ae-3526-4ebd-94b1-28cebe5d80a8",
		"40dbc2ae-3526-4ebd-94b1-28cebe5d80a\n", "40dbc2ae-3526-4ebd-94b1-28cebe5d80é", "",
		"00000000-0000-0000-0000-00000000000F", "0000000f-ffff-ffff-ffff-ffffffffffff",
		"40dbc2ae-3526-4ebd-94b1-28cebe5d80\x00", "40dbc2ae-3526-4ebd-94b1-28cebe5d80a8\r",
		"\x0040dbc2ae-3526-4ebd-94b1-28cebe5d80a", "40dbc2ae%2D3526-4ebd-94b1-28cebe5d80a8",
	} {
		requireSameAsKinOpenAPI(t, s)
	}
}

func FuzzUUIDFormat(f *testing.F) {
	f.Add("40dbc2ae-3526-4ebd-94b1-28cebe5d80a8")
	f.Add("ffffffff-ffff-ffff-ffff-ffffffffffff")
	f.Add("40dbc2ae-3526-9ebd-94b1-28cebe5d80a8")
	f.Fuzz(func(t *testing.T, s string) {
		requireSameAsKinOpenAPI(t, s)
	})
}
