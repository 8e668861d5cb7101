package mail

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"math"
	"strings"
	"time"
	"unicode"
)

// Report is what the email about one scheduled scan says.
type Report struct {
	URL       string
	Domain    string
	BrandName string
	Frequency string
	// Failed scans carry Error; completed ones the scores.
	Failed       bool
	ErrorCode    string
	Error        string
	FinishedAt   time.Time
	Overall      float64
	OverallGrade string
	Rings        []Ring
	// Previous is the schedule's completed scan before this one, if any.
	Previous  *Previous
	Regressed []CheckChange
	Improved  []CheckChange
	// QuickWins are the dossier's high-impact, low-effort actions, first
	// ranked first.
	QuickWins []QuickWin
	ReportURL string
	PDFURL    string
	// NextRunAt is the schedule's next run, zero when it is inactive.
	NextRunAt  time.Time
	ScheduleID string
}

// Ring is one ring's score and grade, and the previous scan's.
type Ring struct {
	Name      string
	Score     int
	Grade     string
	PrevScore *int
	PrevGrade string
}

// Previous is the scan a report is compared with.
type Previous struct {
	FinishedAt   time.Time
	Overall      float64
	OverallGrade string
}

// CheckChange is a check whose verdict moved between the two scans.
type CheckChange struct {
	Title string
	From  string
	To    string
}

// QuickWin is one priority action flagged as a quick win.
type QuickWin struct {
	Label          string
	Recommendation string
}

// MaxChecksListed bounds each list of changed checks; the rest are counted.
const MaxChecksListed = 10

// MaxQuickWins is how many quick wins an email names.
const MaxQuickWins = 3

// Message is an email's subject and bodies.
type Message struct {
	Subject string
	Text    string
	HTML    string
}

// Compose writes the email of r.
func Compose(r Report) (Message, error) {
	v := view(r)
	var text strings.Builder
	writeText(&text, v)
	var html bytes.Buffer
	if err := htmlTmpl.Execute(&html, v); err != nil {
		return Message{}, fmt.Errorf("render html email: %w", err)
	}
	return Message{Subject: v.Subject, Text: text.String(), HTML: html.String()}, nil
}

// emailView is Report with every sentence already worded, shared by the
// text and HTML bodies so they cannot say different things.
type emailView struct {
	Report
	Subject       string
	Site          string
	Finished      string
	OverallLine   string
	Comparison    string
	RingLines     []ringLine
	RegressedMore int
	ImprovedMore  int
	// The totals, listed or not.
	RegressedTotal int
	ImprovedTotal  int
	NextRun        string
}

type ringLine struct {
	Name, Score, Change string
}

func view(r Report) emailView {
	v := emailView{Report: r, Site: oneLine(r.Domain), Finished: r.FinishedAt.UTC().Format("2 January 2006 15:04 UTC")}
	if brand := oneLine(r.BrandName); brand != "" && !strings.EqualFold(brand, v.Site) {
		v.Site = brand + " (" + v.Site + ")"
	}
	if !r.NextRunAt.IsZero() {
		v.NextRun = r.NextRunAt.UTC().Format("2 January 2006")
	}
	if r.Failed {
		v.Subject = "GeoScan: the scheduled scan of " + oneLine(r.Domain) + " failed"
		return v
	}
	v.OverallLine = fmt.Sprintf("%.1f (%s)", r.Overall, r.OverallGrade)
	v.Subject = fmt.Sprintf("GeoScan: %s scored %.1f (%s)", oneLine(r.Domain), r.Overall, r.OverallGrade)
	if p := r.Previous; p != nil {
		d := round1(r.Overall - p.Overall)
		change := "unchanged"
		if d != 0 {
			change = fmt.Sprintf("%+.1f", d)
		}
		grade := "grade " + r.OverallGrade + " unchanged"
		if p.OverallGrade != r.OverallGrade {
			grade = "grade " + p.OverallGrade + " → " + r.OverallGrade
		}
		v.Comparison = fmt.Sprintf("%s, %s since the previous scan on %s (%.1f)", change, grade, p.FinishedAt.UTC().Format("2 January 2006"), p.Overall)
		if d != 0 {
			v.Subject += ", " + change
		}
	}
	for _, ring := range r.Rings {
		l := ringLine{Name: ring.Name, Score: fmt.Sprintf("%d (%s)", ring.Score, ring.Grade)}
		if ring.PrevScore != nil {
			l.Change = "unchanged"
			if d := ring.Score - *ring.PrevScore; d != 0 {
				l.Change = fmt.Sprintf("%+d", d)
			}
			if ring.PrevGrade != ring.Grade {
				l.Change += ", was " + ring.PrevGrade
			}
		}
		v.RingLines = append(v.RingLines, l)
	}
	v.RegressedTotal, v.ImprovedTotal = len(r.Regressed), len(r.Improved)
	if n := len(r.Regressed); n > MaxChecksListed {
		v.Regressed, v.RegressedMore = r.Regressed[:MaxChecksListed], n-MaxChecksListed
	}
	if n := len(r.Improved); n > MaxChecksListed {
		v.Improved, v.ImprovedMore = r.Improved[:MaxChecksListed], n-MaxChecksListed
	}
	if len(v.QuickWins) > MaxQuickWins {
		v.QuickWins = v.QuickWins[:MaxQuickWins]
	}
	return v
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// oneLine keeps a stored string on one line: a brand name is the client's
// text and goes into a subject.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) && r != ' ' }), " ")
}

func writeText(b *strings.Builder, v emailView) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	if v.Failed {
		w("The scheduled scan of %s failed on %s.\n\n", v.Site, v.Finished)
		w("Why: %s", oneLine(v.Error))
		if v.ErrorCode != "" {
			w(" (%s)", v.ErrorCode)
		}
		w("\n\n")
	} else {
		w("The scheduled scan of %s completed on %s.\n\n", v.Site, v.Finished)
		w("Overall: %s\n", v.OverallLine)
		if v.Comparison != "" {
			w("         %s\n", v.Comparison)
		} else {
			w("         This is the schedule's first completed scan; the next email compares with it.\n")
		}
		w("\n")
		for _, l := range v.RingLines {
			w("%-11s %s", l.Name+":", l.Score)
			if l.Change != "" {
				w("  %s", l.Change)
			}
			w("\n")
		}
		if v.Previous != nil {
			w("\n")
			changes(b, "Checks that regressed", v.Regressed, v.RegressedMore)
			changes(b, "Checks that improved", v.Improved, v.ImprovedMore)
		}
		w("\nQuick wins:\n")
		if len(v.QuickWins) == 0 {
			w("  None: every fix left takes more than a little effort; the report ranks them.\n")
		}
		for i, q := range v.QuickWins {
			w("  %d. %s: %s\n", i+1, q.Label, q.Recommendation)
		}
		w("\n")
	}
	w("Report: %s\n", v.ReportURL)
	w("PDF:    %s\n", v.PDFURL)
	w("(Both need your GeoScan API key in the X-API-Key header.)\n\n")
	if v.NextRun != "" {
		w("The next scan of this %s schedule is due on %s. ", v.Frequency, v.NextRun)
	}
	w("You receive this because schedule %s has notify_email on; turn it off with PATCH /api/v1/schedules/%s.\n", v.ScheduleID, v.ScheduleID)
}

func changes(b *strings.Builder, title string, list []CheckChange, more int) {
	if len(list) == 0 {
		fmt.Fprintf(b, "%s: none\n", title)
		return
	}
	fmt.Fprintf(b, "%s (%d):\n", title, len(list)+more)
	for _, c := range list {
		fmt.Fprintf(b, "  - %s (%s → %s)\n", c.Title, c.From, c.To)
	}
	if more > 0 {
		fmt.Fprintf(b, "  … and %d more in the report\n", more)
	}
}

// htmlTmpl escapes every value: brand names and URLs are the client's.
var htmlTmpl = htmltemplate.Must(htmltemplate.New("email").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; color: #1d2733; max-width: 640px; margin: 0 auto; padding: 16px;">
{{if .Failed -}}
<h1 style="font-size: 20px;">The scheduled scan of {{.Site}} failed</h1>
<p>It failed on {{.Finished}}.</p>
<p><strong>Why:</strong> {{.Error}}{{if .ErrorCode}} (<code>{{.ErrorCode}}</code>){{end}}</p>
{{- else -}}
<h1 style="font-size: 20px;">{{.Site}} scored {{.OverallLine}}</h1>
<p>The scheduled scan completed on {{.Finished}}.
{{- if .Comparison}} Overall: {{.Comparison}}.{{else}} This is the schedule's first completed scan; the next email compares with it.{{end}}</p>
<table style="border-collapse: collapse;" cellpadding="6">
<tr><th align="left">Ring</th><th align="left">Score</th><th align="left">Change</th></tr>
<tr><td>Overall</td><td>{{.OverallLine}}</td><td></td></tr>
{{range .RingLines}}<tr><td>{{.Name}}</td><td>{{.Score}}</td><td>{{.Change}}</td></tr>
{{end}}</table>
{{if .Previous -}}
<h2 style="font-size: 16px;">Checks that regressed{{if .Regressed}} ({{.RegressedTotal}}){{end}}</h2>
{{if .Regressed}}<ul>{{range .Regressed}}<li>{{.Title}} ({{.From}} → {{.To}})</li>{{end}}{{if .RegressedMore}}<li>… and {{.RegressedMore}} more in the report</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}
<h2 style="font-size: 16px;">Checks that improved{{if .Improved}} ({{.ImprovedTotal}}){{end}}</h2>
{{if .Improved}}<ul>{{range .Improved}}<li>{{.Title}} ({{.From}} → {{.To}})</li>{{end}}{{if .ImprovedMore}}<li>… and {{.ImprovedMore}} more in the report</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}
{{- end}}
<h2 style="font-size: 16px;">Quick wins</h2>
{{if .QuickWins}}<ol>{{range .QuickWins}}<li><strong>{{.Label}}</strong>: {{.Recommendation}}</li>{{end}}</ol>{{else}}<p>None: every fix left takes more than a little effort; the report ranks them.</p>{{end}}
{{- end}}
<p><a href="{{.ReportURL}}">Report</a> · <a href="{{.PDFURL}}">PDF</a> (both need your GeoScan API key in the <code>X-API-Key</code> header)</p>
<p style="color: #5b6775; font-size: 12px;">{{if .NextRun}}The next scan of this {{.Frequency}} schedule is due on {{.NextRun}}. {{end}}You receive this because schedule {{.ScheduleID}} has notify_email on; turn it off with PATCH /api/v1/schedules/{{.ScheduleID}}.</p>
</body></html>
`))
