package report

import (
	"fmt"
	"strings"
)

// Texts written for people: the report's sentences are generated, so the
// small rules of English a writer would follow (plurals, "none of" rather
// than "0 of", titles rather than ids for the marketing audience) live here
// and both the JSON report and the PDF use them. The findings of the checks
// come written that way (package checks tests its summaries for it).

// quoted puts a check title in typographic quotes, as the triage dossier
// does, so a title phrased as a goal ("Your organisation is clearly
// identified") reads as a name, not as a claim about the site.
func quoted(title string) string {
	return "“" + strings.TrimSuffix(title, ".") + "”"
}

// plural is "1 page" or "3 pages"; zero is "no pages".
func plural(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
