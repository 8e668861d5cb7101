package jsonshape

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

type level string

type inner struct {
	Note *string `json:"note"`
	Next *inner  `json:"next,omitempty"`
}

type embedded struct {
	Flat int `json:"flat"`
}

type doc struct {
	embedded
	ID       uuid.UUID         `json:"id"`
	At       time.Time         `json:"at"`
	Level    level             `json:"level"`
	Tags     []string          `json:"tags"`
	Evidence map[string]any    `json:"evidence"`
	Inner    inner             `json:"inner"`
	Items    []inner           `json:"items,omitempty"`
	Raw      []byte            `json:"raw"`
	Hidden   string            `json:"-"`
	Untagged bool              // no tag: the Go name
	Scores   map[string]*int64 `json:"scores"`
	private  int
}

func TestOfWritesOneLinePerPath(t *testing.T) {
	t.Parallel()
	_ = doc{}.private
	require.Equal(t, `Untagged  boolean
at  json (time.Time)
evidence  object
evidence.*  any
flat  number
id  string (uuid.UUID)
inner  object
inner.next  object (jsonshape.inner, as above) omitted when empty
inner.note  string or null
items  array omitted when empty
items[]  object
items[].next  object (jsonshape.inner, as above) omitted when empty
items[].note  string or null
level  string
raw  string (base64)
scores  object
scores.*  number or null
tags  array
tags[]  string
`, Of(doc{}))
}

// A change of a field's name, type or nullability changes the shape.
func TestOfSeesWhatChangesTheEncoding(t *testing.T) {
	t.Parallel()
	type a struct {
		X string `json:"x"`
	}
	type renamed struct {
		X string `json:"y"`
	}
	type retyped struct {
		X int `json:"x"`
	}
	type nullable struct {
		X *string `json:"x"`
	}
	for _, other := range []any{renamed{}, retyped{}, nullable{}} {
		require.NotEqual(t, Of(a{}), Of(other))
	}
}
