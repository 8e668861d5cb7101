package testsite

import (
	"html"
	"regexp"
	"strconv"
	"strings"
)

// The long prose of the fixtures (blog posts, documentation, legal pages) is
// written once in Markdown and turned into HTML here. The documentation
// fixture also serves the Markdown itself (its .md twins and llms-full.txt),
// so one source keeps the two forms in step. Only the subset the fixtures
// use is understood: ATX headings, paragraphs, flat lists, pipe tables,
// fenced code, block quotes and raw HTML blocks; inline links, code, bold
// and emphasis.

// mdStyle picks the class names a CMS would put on the generated elements.
type mdStyle int

const (
	// mdPlain is static-site-generator output: headings get id anchors.
	mdPlain mdStyle = iota
	// mdGutenberg is the WordPress block editor's markup.
	mdGutenberg
)

func markdownHTML(src string, style mdStyle) string {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out strings.Builder
	var para []string
	flush := func() {
		if len(para) > 0 {
			out.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "```"):
			flush()
			lang := strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code = append(code, lines[i])
			}
			class := ""
			if lang != "" {
				class = ` class="language-` + html.EscapeString(lang) + `"`
				if style == mdPlain {
					class += ` data-lang="` + html.EscapeString(lang) + `"`
				}
			}
			pre := "<pre>"
			if style == mdGutenberg {
				pre = `<pre class="wp-block-code">`
			}
			out.WriteString(pre + "<code" + class + ">" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case strings.HasPrefix(trimmed, "#"):
			flush()
			level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
			text := strings.TrimSpace(trimmed[level:])
			if level > 6 {
				level = 6
			}
			n := string(rune('0' + level))
			attr := ` id="` + slug(text) + `"`
			if style == mdGutenberg {
				attr = ` class="wp-block-heading"`
			}
			out.WriteString("<h" + n + attr + ">" + inline(text) + "</h" + n + ">\n")
		case strings.HasPrefix(trimmed, "<"):
			// A raw HTML block runs to the next blank line.
			flush()
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				out.WriteString(lines[i] + "\n")
			}
		case strings.HasPrefix(trimmed, ">"):
			flush()
			var quote []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">"); i++ {
				quote = append(quote, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), ">")))
			}
			i--
			open := "<blockquote>"
			if style == mdGutenberg {
				open = `<blockquote class="wp-block-quote">`
			}
			out.WriteString(open + "<p>" + inline(strings.Join(quote, " ")) + "</p></blockquote>\n")
		case strings.HasPrefix(trimmed, "|"):
			flush()
			var rows []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				rows = append(rows, strings.TrimSpace(lines[i]))
			}
			i--
			out.WriteString(table(rows, style))
		case listItem(trimmed) != "":
			flush()
			tag := "ul"
			if orderedItem.MatchString(trimmed) {
				tag = "ol"
			}
			open := "<" + tag + ">"
			if style == mdGutenberg {
				open = "<" + tag + ` class="wp-block-list">`
			}
			out.WriteString(open + "\n")
			for ; i < len(lines) && listItem(strings.TrimSpace(lines[i])) != ""; i++ {
				out.WriteString("<li>" + inline(listItem(strings.TrimSpace(lines[i]))) + "</li>\n")
			}
			i--
			out.WriteString("</" + tag + ">\n")
		default:
			para = append(para, trimmed)
		}
	}
	flush()
	return out.String()
}

var orderedItem = regexp.MustCompile(`^\d+\.\s+`)

// listItem is the text of a list line, or "" when the line is not one.
func listItem(line string) string {
	if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") {
		return strings.TrimSpace(line[2:])
	}
	if loc := orderedItem.FindStringIndex(line); loc != nil {
		return strings.TrimSpace(line[loc[1]:])
	}
	return ""
}

func table(rows []string, style mdStyle) string {
	cells := func(row string) []string {
		parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|"), "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	tr := func(row, tag string) string {
		var b strings.Builder
		b.WriteString("<tr>")
		for _, c := range cells(row) {
			b.WriteString("<" + tag + ">" + inline(c) + "</" + tag + ">")
		}
		b.WriteString("</tr>\n")
		return b.String()
	}
	var b strings.Builder
	if style == mdGutenberg {
		b.WriteString(`<figure class="wp-block-table">`)
	}
	b.WriteString("<table>\n<thead>\n" + tr(rows[0], "th") + "</thead>\n<tbody>\n")
	for _, row := range rows[1:] {
		if strings.Trim(row, "|-: ") == "" {
			continue // the separator under the header
		}
		b.WriteString(tr(row, "td"))
	}
	b.WriteString("</tbody>\n</table>")
	if style == mdGutenberg {
		b.WriteString("</figure>")
	}
	b.WriteString("\n")
	return b.String()
}

var (
	mdCode   = regexp.MustCompile("`([^`]+)`")
	mdLink   = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	mdStrong = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	mdEm     = regexp.MustCompile(`(^|[\s(])\*([^*\s][^*]*)\*`)
)

// inline renders inline Markdown. Code spans are cut out first so that
// their contents stay literal.
func inline(s string) string {
	var codes []string
	s = mdCode.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + strconv.Itoa(len(codes)-1) + "\x00"
	})
	s = html.EscapeString(s)
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := mdLink.FindStringSubmatch(m)
		return `<a href="` + sub[2] + `">` + sub[1] + `</a>`
	})
	s = mdStrong.ReplaceAllString(s, "<strong>$1</strong>")
	s = mdEm.ReplaceAllString(s, "$1<em>$2</em>")
	for i, c := range codes {
		s = strings.Replace(s, "\x00"+strconv.Itoa(i)+"\x00", c, 1)
	}
	return s
}

// slug turns a heading into an anchor id, as static site generators do.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
