package fixes

import (
	"fmt"
	"sort"
	"strings"
)

// textFile is a text file cut into lines as Google's robots.txt parser
// cuts it, so line numbers agree with the evidence and the robots.txt
// evaluation: a leading byte-order mark (whole or partial) is skipped, and
// CR, LF and CRLF each end one line.
type textFile struct {
	lines []string
	// eol is set when the last line ended with a line end.
	eol bool
	// crlf is set when the file ends its lines with CRLF.
	crlf bool
}

func splitText(text string) textFile {
	const bom = "\xEF\xBB\xBF"
	for i := 0; i < len(bom) && len(text) > 0 && text[0] == bom[i]; i++ {
		text = text[1:]
	}
	var f textFile
	f.crlf = strings.Contains(text, "\r\n")
	start, lastCR := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\n' && c != '\r' {
			continue
		}
		if c != '\n' || !lastCR || i != start {
			f.lines = append(f.lines, text[start:i])
		}
		start = i + 1
		lastCR = c == '\r'
	}
	if start < len(text) {
		f.lines = append(f.lines, text[start:])
	} else {
		f.eol = len(f.lines) > 0
	}
	return f
}

// edits change a textFile: whole lines deleted, lines inserted after a
// line (0 inserts before the first).
type edits struct {
	del map[int]bool
	ins map[int][]string
}

func newEdits() *edits { return &edits{del: map[int]bool{}, ins: map[int][]string{}} }

func (e *edits) empty() bool { return len(e.del) == 0 && len(e.ins) == 0 }

// result is the edited file, every line ending in LF, with origin[i] the
// old number of new line i+1 (0 for an inserted line).
func (e *edits) result(f textFile) (text string, origin []int) {
	var b strings.Builder
	add := func(l string, from int) {
		b.WriteString(l)
		b.WriteByte('\n')
		origin = append(origin, from)
	}
	for _, l := range e.ins[0] {
		add(l, 0)
	}
	for i, l := range f.lines {
		if !e.del[i+1] {
			add(l, i+1)
		}
		for _, in := range e.ins[i+1] {
			add(in, 0)
		}
	}
	text = b.String()
	if n := len(f.lines); n > 0 && !f.eol && !e.del[n] && len(e.ins[n]) == 0 {
		// The end was left as it was, without a line end.
		text = strings.TrimSuffix(text, "\n")
	}
	return text, origin
}

// position is the 0-based number, in the edited file, of the first line
// inserted after old line n.
func (e *edits) position(f textFile, n int) int {
	pos := len(e.ins[0])
	for i := 1; i <= n && i <= len(f.lines); i++ {
		if !e.del[i] {
			pos++
		}
		if i < n {
			pos += len(e.ins[i])
		}
	}
	if n == 0 {
		return 0
	}
	return pos
}

// op is one line of a diff: ' ' kept, '-' deleted, '+' added; noEOL marks
// the last line of a file that has no line end.
type op struct {
	kind  byte
	text  string
	noEOL bool
}

// unifiedDiff writes the edits as a unified diff of name with three lines
// of context, numbered as the lines of f.
func unifiedDiff(name string, f textFile, e *edits) string {
	n := len(f.lines)
	// The edited file ends with a line end unless its end was left as it
	// was in a file without one.
	touchedEnd := e.del[n] || len(e.ins[n]) > 0
	var ops []op
	ops = appendInserted(ops, e.ins[0])
	for i, l := range f.lines {
		no := i + 1
		last := no == n && !f.eol
		switch {
		case e.del[no]:
			ops = append(ops, op{kind: '-', text: l, noEOL: last})
		case last && touchedEnd:
			// The line gains a line end: it changes.
			ops = append(ops, op{kind: '-', text: l, noEOL: true}, op{kind: '+', text: l})
		default:
			ops = append(ops, op{kind: ' ', text: l, noEOL: last})
		}
		ops = appendInserted(ops, e.ins[no])
	}
	var changed []int
	for i, o := range ops {
		if o.kind != ' ' {
			changed = append(changed, i)
		}
	}
	if len(changed) == 0 {
		return ""
	}
	const context = 3
	type span struct{ from, to int }
	var spans []span
	for _, i := range changed {
		from, to := max(i-context, 0), min(i+context, len(ops)-1)
		if len(spans) > 0 && from <= spans[len(spans)-1].to+1 {
			spans[len(spans)-1].to = to
			continue
		}
		spans = append(spans, span{from, to})
	}
	// Old and new line numbers before each op.
	oldAt, newAt := make([]int, len(ops)), make([]int, len(ops))
	o, nw := 0, 0
	for i, op := range ops {
		oldAt[i], newAt[i] = o, nw
		if op.kind != '+' {
			o++
		}
		if op.kind != '-' {
			nw++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	for _, s := range spans {
		oc, nc := 0, 0
		for _, op := range ops[s.from : s.to+1] {
			if op.kind != '+' {
				oc++
			}
			if op.kind != '-' {
				nc++
			}
		}
		os, ns := oldAt[s.from], newAt[s.from]
		if oc > 0 {
			os++
		}
		if nc > 0 {
			ns++
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", os, oc, ns, nc)
		for _, op := range ops[s.from : s.to+1] {
			b.WriteByte(op.kind)
			b.WriteString(op.text)
			b.WriteByte('\n')
			if op.noEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

func appendInserted(ops []op, lines []string) []op {
	for _, l := range lines {
		ops = append(ops, op{kind: '+', text: l})
	}
	return ops
}

// describe says what the edits do, line by line, for a person applying
// them by hand: "Delete line 5: `Disallow: /`." …
func (e *edits) describe(f textFile) []string {
	var out []string
	var dels []int
	for no := range e.del {
		dels = append(dels, no)
	}
	sort.Ints(dels)
	var after []int
	for no := range e.ins {
		after = append(after, no)
	}
	sort.Ints(after)
	for _, no := range dels {
		out = append(out, fmt.Sprintf("Delete line %d: `%s`.", no, f.lines[no-1]))
	}
	for _, no := range after {
		block := strings.Join(e.ins[no], "\n")
		switch {
		case no == len(f.lines) && no > 0:
			out = append(out, "Add at the end of the file:\n"+block)
		case no == 0:
			out = append(out, "Add at the start of the file:\n"+block)
		default:
			out = append(out, fmt.Sprintf("After line %d (`%s`), add:\n%s", no, f.lines[no-1], block))
		}
	}
	return out
}
