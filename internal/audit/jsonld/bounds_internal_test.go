package jsonld

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// repeated is a block of n nodes, item(i) each.
func repeated(n int, item func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// TestManyTypesAreCut: a node keeps maxTypes types, however many its
// declarations list, so each lookup and merge of its types stays small.
func TestManyTypesAreCut(t *testing.T) {
	t.Parallel()
	var types []string
	for i := range 100 {
		types = append(types, strconv.Quote("T"+strconv.Itoa(i)))
	}
	g := Parse([]string{
		`{"@id":"#x","@type":[` + strings.Join(types, ",") + `],"name":"x"}`,
		repeated(100, func(i int) string { return `{"@id":"#y","@type":"U` + strconv.Itoa(i) + `"}` }),
	})
	require.Len(t, g.Entities, 2)
	require.Len(t, g.ByID("#x").Types, maxTypes)
	require.Equal(t, "T0", g.ByID("#x").Types[0])
	require.Len(t, g.ByID("#y").Types, maxTypes)
	require.Len(t, g.Types(), 2*maxTypes)
}

// TestManyNodesOfOneName: nodes sharing a name are all entities, but only
// maxSameName of them are compared with nodes of another syntax, so each
// node's search for its twin stays short.
func TestManyNodesOfOneName(t *testing.T) {
	t.Parallel()
	g := Parse([]string{repeated(1000, func(int) string { return `{"@type":"Thing","name":"A"}` })})
	require.Len(t, g.Entities, 1000)
	require.Len(t, g.byName["a"], maxSameName)
	g.AddMarkup(Microdata, []*Node{{Types: []string{"https://schema.org/Thing"}, Props: []Prop{{Name: "name", Value: "A"}}}})
	require.Len(t, g.Entities, 1000, "merged into the first")
	require.Equal(t, JSONLD|Microdata, g.Entities[0].Syntax)
}

// TestRepeatedDeclarationsMergeInLinearSpace: a node declared n times,
// each declaration adding a value, holds the n values in order, and
// reading 4n declarations allocates about four times what n do (it was
// sixteen: every merge copied and compared every value held).
func TestRepeatedDeclarationsMergeInLinearSpace(t *testing.T) {
	block := func(n int) string {
		return repeated(n, func(i int) string { return `{"@id":"#x","@type":"T","p":"v` + strconv.Itoa(i) + `"}` })
	}
	allocated := func(n int) uint64 {
		b := block(n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g := Parse([]string{b})
		runtime.ReadMemStats(&after)
		require.Len(t, g.Entities, 1)
		p := g.Entities[0].Props["p"].([]any)
		require.Len(t, p, n)
		require.Equal(t, "v0", p[0])
		require.Equal(t, "v"+strconv.Itoa(n-1), p[n-1])
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(2000), allocated(8000)
	require.Less(t, large, 8*small, "allocated %d bytes for 2000 declarations, %d for 8000", small, large)
}
