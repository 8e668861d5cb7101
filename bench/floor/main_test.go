package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The floor must run the API's query, or the comparison measures another
// one: its text is held to GetScanViewForOrg in sql/queries.
func TestQueryIsTheAPIs(t *testing.T) {
	src, err := os.ReadFile("../../sql/queries/scans.sql")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(src), "-- name: GetScanViewForOrg :one\n")
	if !ok {
		t.Fatal("sql/queries/scans.sql has no GetScanViewForOrg")
	}
	stmt, _, _ := strings.Cut(rest, ";")
	var lines []string
	for _, l := range strings.Split(stmt, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			lines = append(lines, l)
		}
	}
	want := strings.NewReplacer("@id", "$1", "@org_id", "$2").Replace(strings.Join(lines, "\n"))
	space := regexp.MustCompile(`\s+`)
	if got, want := space.ReplaceAllString(query, " "), strings.TrimSpace(space.ReplaceAllString(want, " ")); got != want {
		t.Fatalf("bench/floor's query\n%s\nis not the API's\n%s", got, want)
	}
}
