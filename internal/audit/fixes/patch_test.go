package fixes

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// applyUnifiedDiff applies a unified diff to text as patch(1) would with
// no fuzz: every context and deleted line must be the line of the old
// file at its number, and every hunk's counts must add up. Line ends are
// CR, LF or CRLF, and a leading byte-order mark is skipped, as robots.txt
// is read. It is the tests' proof that a patch says what it means against
// the file the scan read.
func applyUnifiedDiff(text, diff string) (string, error) {
	text = strings.TrimPrefix(text, "\xEF\xBB\xBF")
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text)
	oldEOL := strings.HasSuffix(text, "\n")
	old := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		old = nil
	}
	header := regexp.MustCompile(`^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$`)
	var out []string
	next := 1 // the next old line to copy
	// noEOL marks the index of a new line that a hunk says has no line end.
	noEOL := -1
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no --- and +++ header")
	}
	for i := 2; i < len(lines); {
		m := header.FindStringSubmatch(lines[i])
		if m == nil {
			return "", fmt.Errorf("line %d of the diff: %q is no hunk header", i+1, lines[i])
		}
		oldStart, _ := strconv.Atoi(m[1])
		oldCount, _ := strconv.Atoi(m[2])
		newStart, _ := strconv.Atoi(m[3])
		newCount, _ := strconv.Atoi(m[4])
		from := oldStart
		if oldCount == 0 {
			from = oldStart + 1
		}
		if from < next {
			return "", fmt.Errorf("hunk %q overlaps the one before", lines[i])
		}
		for ; next < from; next++ {
			out = append(out, old[next-1])
		}
		if got := len(out) + 1; newCount > 0 && got != newStart || newCount == 0 && got-1 != newStart {
			return "", fmt.Errorf("hunk %q starts at new line %d", lines[i], got)
		}
		i++
		seenOld, seenNew := 0, 0
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			if strings.HasPrefix(l, `\ `) {
				// The line before has no line end: the last of the old file
				// (deleted) or of the new one (added or kept).
				if c := lines[i-1][0]; c == '+' || c == ' ' {
					noEOL = len(out) - 1
				}
				continue
			}
			if l == "" {
				return "", fmt.Errorf("line %d of the diff is empty", i+1)
			}
			body := l[1:]
			switch l[0] {
			case ' ', '-':
				if next > len(old) || old[next-1] != body {
					return "", fmt.Errorf("line %d of the file is not %q", next, body)
				}
				seenOld++
				if l[0] == ' ' {
					out = append(out, body)
					seenNew++
				}
				next++
			case '+':
				out = append(out, body)
				seenNew++
			default:
				return "", fmt.Errorf("line %d of the diff starts with %q", i+1, l[0])
			}
		}
		if seenOld != oldCount || seenNew != newCount {
			return "", fmt.Errorf("hunk -%d,%d +%d,%d holds %d old and %d new lines", oldStart, oldCount, newStart, newCount, seenOld, seenNew)
		}
	}
	eol := noEOL != len(out)-1
	if next <= len(old) {
		eol = oldEOL
	}
	for ; next <= len(old); next++ {
		out = append(out, old[next-1])
	}
	result := strings.Join(out, "\n")
	if eol && len(out) > 0 {
		result += "\n"
	}
	return result, nil
}
