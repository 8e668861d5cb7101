package report

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/geoscan/geoscan/internal/checks"
	"github.com/geoscan/geoscan/internal/scoring"
)

// Texts written for people: the report's sentences are generated, so the
// small rules of English a writer would follow (plurals, "none of" rather
// than "0 of", names not ids) live here and both the JSON report and the
// PDF use them.

// quoted puts a check title in typographic quotes, as the triage dossier
// does, so a title phrased as a goal ("Your organisation is clearly
// identified") reads as a name, not as a claim about the site.
func quoted(title string) string {
	return "“" + strings.TrimSuffix(title, ".") + "”"
}

// statusVerb says what a warn or fail means in a sentence: "which fails
// today".
func statusVerb(s checks.Status) string {
	if s == checks.Warn {
		return "only partly passes"
	}
	return "fails"
}

// passCount is "none of the 10 scored checks pass", "3 of 10 scored checks
// pass", "all 4 scored checks pass" or "the only scored check fails".
func passCount(passed, scored int) string {
	switch {
	case scored == 0:
		return "no check could be scored"
	case scored == 1 && passed == 1:
		return "the only scored check passes"
	case scored == 1:
		return "the only scored check does not pass"
	case passed == 0:
		return fmt.Sprintf("none of the %d scored checks pass", scored)
	case passed == scored:
		return fmt.Sprintf("all %d scored checks pass", scored)
	}
	return fmt.Sprintf("%d of %d scored checks pass", passed, scored)
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

// checkTitles maps check ids to their titles for an audience.
func checkTitles(outcomes []checks.Outcome, audience scoring.Audience) map[string]string {
	m := make(map[string]string, len(outcomes))
	for _, o := range outcomes {
		m[o.Check.ID] = o.Check.TextFor(audience).Title
	}
	return m
}

var (
	// snakeID is how every internal id is spelled: lower case words joined
	// by underscores. Only ids in the title table are replaced.
	snakeID = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
	// onlyZero is "only 0 words", which reads as "no words".
	onlyZero = regexp.MustCompile(`\bonly 0 ([a-z])`)
	// zeroCount is "links to 0 internal URLs"; "0 of", "0%" and "0.5" are
	// left alone.
	zeroCount = regexp.MustCompile(`(^|[\s(])0 ([a-z][a-zA-Z-]*)`)
)

// tidyCounts writes zero counts as words: "only 0 words" and "0 words"
// become "no words"; "0 of 3", "0%" and "0.5" are left alone. It changes
// no number a reader could compare, so both audiences get the same text.
func tidyCounts(s string) string {
	s = onlyZero.ReplaceAllString(s, "no $1")
	return zeroCount.ReplaceAllStringFunc(s, func(m string) string {
		sub := zeroCount.FindStringSubmatch(m)
		if sub[2] == "of" {
			return m
		}
		return sub[1] + "no " + sub[2]
	})
}

// Humanize rewrites a finding for people: zero counts as words and, for the
// marketing audience, every check id as the check's quoted title.
func Humanize(s string, audience scoring.Audience, titles map[string]string) string {
	s = tidyCounts(s)
	if audience == scoring.Engineering {
		return s
	}
	return snakeID.ReplaceAllStringFunc(s, func(id string) string {
		if t, ok := titles[id]; ok {
			return quoted(t)
		}
		return id
	})
}

// notMeasured replaces the summary of a check that needs something this
// installation does not have, keyed by the evidence the check leaves. The
// summary of a check is the same for both audiences, so the sentence is
// written for both.
func notMeasured(ev map[string]any) (string, bool) {
	if ev["reason"] == "no_crux_api_key" {
		return "Not measured: real-visitor speed data needs a Chrome UX Report (CrUX) API key, which this GeoScan server does not have; not scored.", true
	}
	return "", false
}
