package report

import (
	"regexp"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/checks"
)

// The findings of the checks are written once for both audiences, and some
// name the setting an operator would change (GEOSCAN_LLM_BASE_URL,
// GEOSCAN_LLM_RUNS …). Settings are words of whoever runs GeoScan, not of
// the client reading the marketing edition: forClients says the same in
// plain words, dropping the setting names and any sentence that only
// advises an operator.

// setting is an environment variable's name as the texts write it, with an
// optional value: GEOSCAN_LLM_RUNS=7.
const setting = `\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?:=\S*[^\s.,;:)])?`

var (
	// settingAside is a parenthesis that only names settings: "
	// (GEOSCAN_LLM_MAX_CALLS, GEOSCAN_LLM_MAX_TOKENS)".
	settingAside = regexp.MustCompile(`\s*\(` + setting + `(?:(?:,| and| or)\s*` + setting + `)*\)`)
	// SettingName finds a setting left in a text.
	settingName = regexp.MustCompile(`\bGEOSCAN_[A-Z0-9_]+`)
	// sentenceEnd splits after a full stop, question or exclamation mark.
	sentenceEnd = regexp.MustCompile(`[.!?]\s+`)
)

// clientPhrases are operator phrasings with a plain equivalent.
var clientPhrases = strings.NewReplacer(
	checks.NoAnswerEngine, "no AI answer engine was connected for this audit",
	"No answer engine is configured", "No AI answer engine was connected for this audit",
)

// forClients rewrites a text for the marketing edition: no setting names.
func forClients(s string) string {
	if !settingName.MatchString(s) && !strings.Contains(s, checks.NoAnswerEngine) && !strings.Contains(s, "No answer engine is configured") {
		return s
	}
	s = settingAside.ReplaceAllString(s, "")
	s = clientPhrases.Replace(s)
	if !settingName.MatchString(s) {
		return s
	}
	// A sentence that still names a setting is advice to an operator.
	var kept []string
	rest := s
	for rest != "" {
		end := len(rest)
		if loc := sentenceEnd.FindStringIndex(rest); loc != nil {
			end = loc[1]
		}
		sentence := rest[:end]
		rest = rest[end:]
		if !settingName.MatchString(sentence) {
			kept = append(kept, strings.TrimSpace(sentence))
		}
	}
	return strings.Join(kept, " ")
}
