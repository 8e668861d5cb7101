package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the commands print for a person goes through printf (or sprintf,
// for a message printed later). Its arguments are text that a user, a site
// or the server chose: brand names, URLs, summaries, titles, the server's
// error messages. Each one is escaped, so a character that would act on a
// terminal instead of being shown by it — ESC and the other C0 and C1
// controls, DEL, the Unicode bidi controls that reorder what is shown, line
// and paragraph separators, bytes that are not UTF-8 — is printed as its Go
// escape (\x1b, \u009b, \u202e, \n): the reader sees that something was
// there and the terminal does nothing with it. Only the format strings,
// which are this package's constants, write control characters (the table
// tabs, the line ends, the progress line's redraw); a test holds every
// print of the package to that.
//
// What the user asked for as data is written as received: --json, and the
// documents of export and pdf written to a file or to a pipe. Written to a
// terminal, a document is escaped like the rest (shown, not run).

// escape returns s with every character that could act on a terminal
// written as a Go escape (strconv's spelling); everything else, backslashes
// included, is left as it is so ordinary text reads unchanged.
func escape(s string) string { return escapeKeeping(s, false) }

// escapeKeeping is escape, but with keepLayout the line breaks and tabs of
// text of several lines stay.
func escapeKeeping(s string, keepLayout bool) string {
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && size == 1
		if invalid || acts(r, keepLayout) {
			if done == 0 {
				b.Grow(len(s) + 16)
			}
			b.WriteString(s[done:i])
			if invalid {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			} else {
				q := strconv.QuoteRune(r)
				b.WriteString(q[1 : len(q)-1])
			}
			done = i + size
		}
		i += size
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// acts reports whether r does something on a terminal rather than being
// shown: a control character (C0, DEL, C1), a bidi control, or a line or
// paragraph separator.
func acts(r rune, keepLayout bool) bool {
	if keepLayout && (r == '\n' || r == '\t') {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Zl, unicode.Zp)
}

// lines is text of several lines (an email's body, a usage message, a
// wrapped paragraph): printed with its line breaks and tabs, everything
// else that acts on a terminal escaped.
type lines string

func (l lines) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, escapeKeeping(string(l), true)) }

// shown formats its value with the verb and flags it is printed with, then
// escapes the result; a width pads what is shown, escapes included.
type shown struct{ v any }

func (s shown) Format(f fmt.State, verb rune) {
	directive := fmt.FormatString(f, verb)
	text := fmt.Sprintf(directive, s.v)
	safe := escape(text)
	if w, ok := f.Width(); ok && safe != text {
		// Padded again after escaping: flags, then the width, then the rest.
		i := strings.IndexAny(directive, "123456789")
		safe = escape(fmt.Sprintf(directive[:i]+directive[i+len(strconv.Itoa(w)):], s.v))
		pad := strings.Repeat(" ", max(0, w-utf8.RuneCountInString(safe)))
		if f.Flag('-') {
			safe += pad
		} else {
			safe = pad + safe
		}
	}
	_, _ = io.WriteString(f, safe)
}

func shownArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if l, ok := a.(lines); ok {
			out[i] = l
		} else {
			out[i] = shown{a}
		}
	}
	return out
}

// printf is fmt.Fprintf with every argument escaped (lines keep their
// line breaks); format must be a constant of this package.
func printf(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, shownArgs(args)...)
}

// sprintf is fmt.Sprintf with every argument escaped, for a message printed
// later (an exit message).
func sprintf(format string, args ...any) string {
	return fmt.Sprintf(format, shownArgs(args)...)
}

// layoutWriter escapes what is written through it but for line breaks and
// tabs: the output of the flag package, which echoes the command line.
type layoutWriter struct{ w io.Writer }

func (l layoutWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(l.w, escapeKeeping(string(p), true)); err != nil {
		return 0, err
	}
	return len(p), nil
}
