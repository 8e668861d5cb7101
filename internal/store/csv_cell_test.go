package store_test

import (
	"context"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// geoscan_csv_cell (sql/migrations) writes every text cell of GET
// /scans/export: a value a spreadsheet would run as a formula gets a
// leading apostrophe, an empty one becomes NULL (an empty cell).
func TestCSVCell(t *testing.T) {
	t.Parallel()
	tx := pgtest.Tx(t)
	cell := func(v string) *string {
		t.Helper()
		var out *string
		require.NoError(t, tx.QueryRow(context.Background(), `SELECT geoscan_csv_cell($1)`, v).Scan(&out))
		return out
	}
	require.Nil(t, cell(""), "an empty string is an empty cell, as null is")

	for _, tc := range []struct{ in, want string }{
		// Text stays as it is.
		{"Acme", "Acme"},
		{"https://www.example.com/", "https://www.example.com/"},
		{"a=1", "a=1"},
		{"1-2", "1-2"},
		{" plain", " plain"},
		{"\nplain", "\nplain"},
		{"x\n=1", "x\n=1"},
		{"'=already", "'=already"},
		{"\u2212minus sign", "\u2212minus sign"},
		// The formula signs.
		{"=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"},
		{"+cmd", "'+cmd"},
		{"-1 reasons", "'-1 reasons"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"=", "'="},
		// Their full-width forms.
		{"＝1+1", "'＝1+1"},
		{"＋cmd", "'＋cmd"},
		{"－2", "'－2"},
		{"＠SUM(A1)", "'＠SUM(A1)"},
		// A tab or a carriage return at the start, whatever follows.
		{"\tplain", "'\tplain"},
		{"\rplain", "'\rplain"},
		{"\t=1", "'\t=1"},
		// A sign behind leading whitespace.
		{" =1+1", "' =1+1"},
		{"   @x", "'   @x"},
		{"\n=1", "'\n=1"},
		{"\r\n+1", "'\r\n+1"},
		{" \t\n\v\f\r-1", "' \t\n\v\f\r-1"},
		{"\u00a0=1", "'\u00a0=1"},
		{"\u3000＝1", "'\u3000＝1"},
		{"\u2003 \u205f＋1", "'\u2003 \u205f＋1"},
		{"\u200b@x", "'\u200b@x"},
		{"\ufeff-1", "'\ufeff-1"},
	} {
		got := cell(tc.in)
		require.NotNil(t, got, "%q", tc.in)
		require.Equal(t, tc.want, *got, "%q", tc.in)
	}

	// Every character of Unicode's White_Space counts as leading whitespace.
	n := 0
	for _, r16 := range unicode.White_Space.R16 {
		for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
			in := string(r) + "=1"
			require.Equal(t, "'"+in, *cell(in), "%U", r)
			n++
		}
	}
	for _, r32 := range unicode.White_Space.R32 {
		for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
			in := string(r) + "=1"
			require.Equal(t, "'"+in, *cell(in), "%U", r)
			n++
		}
	}
	require.Greater(t, n, 20)
}
