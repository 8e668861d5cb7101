package mail

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"math"
	"strings"
	"time"
	"unicode"

	auditreport "github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/i18n"
)

// Report is what the email about one scheduled scan says.
type Report struct {
	URL       string
	Domain    string
	BrandName string
	Frequency string
	// Language is what the email is written in ("en", "de", "fr", "es");
	// empty is English.
	Language string
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
	// FirstFix is the dossier's first priority action when it adds to the
	// overall score and is not the first quick win; nil otherwise.
	FirstFix *QuickWin
	// ReportURL is a share link of the report, which opens without a key
	// until ShareExpiresAt; PDFURL is the API's PDF, which needs one. A
	// failed scan has neither.
	ReportURL      string
	ShareExpiresAt time.Time
	PDFURL         string
	// NextRunAt is the schedule's next run, zero when it is inactive.
	NextRunAt  time.Time
	ScheduleID string
	// Brand is the organization's look: its name signs the email and its
	// contact and footer lines end it; the zero Brand is GeoScan's.
	Brand auditreport.Brand
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

// QuickWin is one priority action flagged as a quick win (or the first
// priority).
type QuickWin struct {
	Label          string
	Recommendation string
	// Gain says what the fix adds to the overall score ("+4.4 points", "+3.1
	// points once the fixes ranked above it are made", …); empty for a
	// dossier made before gains were computed.
	Gain string
}

// Said is "Label (gain)" or "Label".
func (q QuickWin) Said() string {
	if q.Gain == "" {
		return q.Label
	}
	return q.Label + " (" + q.Gain + ")"
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
	// W words the email in its language; Lang is its tag.
	W             words
	Lang          string
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
	ShareUntil     string
	// Sender names who the email is from; KeyNote says which key the links
	// need; BrandLines end the email (contact, footer, GeoScan's credit).
	Sender     string
	KeyNote    string
	BrandLines []string
}

type ringLine struct {
	Name, Score, Change string
}

// words is the catalogue as the email's template calls it.
type words interface {
	T(id string, data map[string]any) string
	Tf(id string, pairs ...any) string
}

func view(r Report) emailView {
	w := i18n.For(r.Language)
	day := func(t time.Time) string {
		if w.Lang() == i18n.English {
			return t.UTC().Format("2 January 2006")
		}
		return w.Date(t)
	}
	v := emailView{Report: r, W: w, Lang: w.Lang(), Site: oneLine(r.Domain), Finished: day(r.FinishedAt) + " " + r.FinishedAt.UTC().Format("15:04 UTC")}
	if brand := oneLine(r.BrandName); brand != "" && !strings.EqualFold(brand, v.Site) {
		v.Site = brand + " (" + v.Site + ")"
	}
	if !r.NextRunAt.IsZero() {
		v.NextRun = day(r.NextRunAt)
	}
	if !r.ShareExpiresAt.IsZero() {
		v.ShareUntil = day(r.ShareExpiresAt)
	}
	if r.Frequency == "monthly" || r.Frequency == "quarterly" {
		v.Frequency = w.T("mail.frequency."+r.Frequency, nil)
	}
	brandLines(&v)
	if r.Failed {
		v.Subject = w.Tf("mail.subject_failed", "Sender", v.Sender, "Domain", oneLine(r.Domain))
		return v
	}
	v.OverallLine = fmt.Sprintf("%.1f (%s)", r.Overall, r.OverallGrade)
	v.Subject = w.Tf("mail.subject", "Sender", v.Sender, "Domain", oneLine(r.Domain), "Score", v.OverallLine)
	if p := r.Previous; p != nil {
		d := round1(r.Overall - p.Overall)
		change := w.T("mail.unchanged", nil)
		if d != 0 {
			change = fmt.Sprintf("%+.1f", d)
		}
		grade := w.Tf("mail.grade_unchanged", "Grade", r.OverallGrade)
		if p.OverallGrade != r.OverallGrade {
			grade = w.Tf("mail.grade_changed", "From", p.OverallGrade, "To", r.OverallGrade)
		}
		v.Comparison = w.Tf("mail.comparison", "Change", change, "Grade", grade, "Date", day(p.FinishedAt), "Score", fmt.Sprintf("%.1f", p.Overall))
		if d != 0 {
			v.Subject += ", " + change
		}
	}
	for _, ring := range r.Rings {
		l := ringLine{Name: ring.Name, Score: fmt.Sprintf("%d (%s)", ring.Score, ring.Grade)}
		if ring.PrevScore != nil {
			l.Change = w.T("mail.unchanged", nil)
			if d := ring.Score - *ring.PrevScore; d != 0 {
				l.Change = fmt.Sprintf("%+d", d)
			}
			if ring.PrevGrade != ring.Grade {
				l.Change += ", " + w.Tf("mail.was", "Grade", ring.PrevGrade)
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

// brandLines words what the organization's brand changes: who the email is
// from, which API key the links need, and the lines that end it.
func brandLines(v *emailView) {
	b := v.Brand
	v.Sender, v.KeyNote = "GeoScan", v.W.T("mail.key_note", nil)
	if name := oneLine(b.Name); name != "" {
		v.Sender = name
	}
	if b.HideGeoScan {
		v.KeyNote = v.W.T("mail.key_note_plain", nil)
	}
	for _, s := range []string{b.Contact, b.Footer} {
		if s = strings.TrimSpace(oneLine(s)); s != "" {
			v.BrandLines = append(v.BrandLines, s)
		}
	}
	if v.Sender != "GeoScan" && !b.HideGeoScan {
		v.BrandLines = append(v.BrandLines, v.W.T("html.made_with", nil))
	}
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// oneLine keeps a stored string on one line: a brand name is the client's
// text and goes into a subject.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) && r != ' ' }), " ")
}

func writeText(b *strings.Builder, v emailView) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	t := func(id string, pairs ...any) string { return v.W.Tf(id, pairs...) }
	if v.Failed {
		w("%s\n\n", t("mail.failed_on", "Site", v.Site, "Date", v.Finished))
		w("%s: %s", t("mail.why"), oneLine(v.Error))
		if v.ErrorCode != "" {
			w(" (%s)", v.ErrorCode)
		}
		w("\n\n")
	} else {
		w("%s\n\n", t("mail.completed_on", "Site", v.Site, "Date", v.Finished))
		w("%-8s %s\n", t("mail.overall")+":", v.OverallLine)
		if v.Comparison != "" {
			w("         %s\n", v.Comparison)
		} else {
			w("         %s\n", t("mail.first_scan"))
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
			changes(b, v.W, t("mail.regressed"), v.Regressed, v.RegressedMore)
			changes(b, v.W, t("mail.improved"), v.Improved, v.ImprovedMore)
		}
		if f := v.FirstFix; f != nil {
			w("\n%s: %s: %s\n", t("mail.fix_first"), f.Said(), f.Recommendation)
		}
		w("\n%s:\n", t("mail.quick_wins"))
		if len(v.QuickWins) == 0 {
			w("  %s\n", t("mail.no_quick_wins"))
		}
		for i, q := range v.QuickWins {
			w("  %d. %s: %s\n", i+1, q.Said(), q.Recommendation)
		}
		w("\n")
	}
	if v.ReportURL != "" {
		w("%-7s %s\n", t("mail.report")+":", v.ReportURL)
		w("        %s\n", t("mail.opens_until", "Date", v.ShareUntil))
	}
	if v.PDFURL != "" {
		w("PDF:    %s\n", v.PDFURL)
		w("        %s\n", t("mail.needs_key", "Key", v.KeyNote))
	}
	if v.ReportURL != "" || v.PDFURL != "" {
		w("\n")
	}
	if v.NextRun != "" {
		w("%s ", t("mail.next_run", "Frequency", v.Frequency, "Date", v.NextRun))
	}
	w("%s\n", t("mail.receive", "ID", v.ScheduleID))
	if len(v.BrandLines) > 0 {
		w("\n-- \n%s\n", strings.Join(v.BrandLines, "\n"))
	}
}

func changes(b *strings.Builder, w words, title string, list []CheckChange, more int) {
	if len(list) == 0 {
		fmt.Fprintf(b, "%s: %s\n", title, w.T("mail.none", nil))
		return
	}
	fmt.Fprintf(b, "%s (%d):\n", title, len(list)+more)
	for _, c := range list {
		fmt.Fprintf(b, "  - %s (%s → %s)\n", c.Title, c.From, c.To)
	}
	if more > 0 {
		fmt.Fprintf(b, "  %s\n", w.Tf("mail.more", "N", more))
	}
}

// htmlTmpl escapes every value: brand names and URLs are the client's.
var htmlTmpl = htmltemplate.Must(htmltemplate.New("email").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; color: #1d2733; max-width: 640px; margin: 0 auto; padding: 16px;">
{{if .Failed -}}
<h1 style="font-size: 20px;">{{.W.Tf "mail.failed_title" "Site" .Site}}</h1>
<p>{{.W.Tf "mail.failed_at" "Date" .Finished}}</p>
<p><strong>{{.W.T "mail.why" nil}}:</strong> {{.Error}}{{if .ErrorCode}} (<code>{{.ErrorCode}}</code>){{end}}</p>
{{- else -}}
<h1 style="font-size: 20px;">{{.W.Tf "mail.scored_title" "Site" .Site "Score" .OverallLine}}</h1>
<p>{{.W.Tf "mail.completed_at" "Date" .Finished}}
{{- if .Comparison}} {{.W.T "mail.overall" nil}}: {{.Comparison}}.{{else}} {{.W.T "mail.first_scan" nil}}{{end}}</p>
<table style="border-collapse: collapse;" cellpadding="6">
<tr><th align="left">{{.W.T "mail.ring" nil}}</th><th align="left">{{.W.T "mail.score" nil}}</th><th align="left">{{.W.T "mail.change" nil}}</th></tr>
<tr><td>{{.W.T "mail.overall" nil}}</td><td>{{.OverallLine}}</td><td></td></tr>
{{range .RingLines}}<tr><td>{{.Name}}</td><td>{{.Score}}</td><td>{{.Change}}</td></tr>
{{end}}</table>
{{if .Previous -}}
<h2 style="font-size: 16px;">{{.W.T "mail.regressed" nil}}{{if .Regressed}} ({{.RegressedTotal}}){{end}}</h2>
{{if .Regressed}}<ul>{{range .Regressed}}<li>{{.Title}} ({{.From}} → {{.To}})</li>{{end}}{{if .RegressedMore}}<li>{{$.W.Tf "mail.more" "N" .RegressedMore}}</li>{{end}}</ul>{{else}}<p>{{.W.T "mail.none_sentence" nil}}</p>{{end}}
<h2 style="font-size: 16px;">{{.W.T "mail.improved" nil}}{{if .Improved}} ({{.ImprovedTotal}}){{end}}</h2>
{{if .Improved}}<ul>{{range .Improved}}<li>{{.Title}} ({{.From}} → {{.To}})</li>{{end}}{{if .ImprovedMore}}<li>{{$.W.Tf "mail.more" "N" .ImprovedMore}}</li>{{end}}</ul>{{else}}<p>{{.W.T "mail.none_sentence" nil}}</p>{{end}}
{{- end}}
{{with .FirstFix}}<h2 style="font-size: 16px;">{{$.W.T "mail.fix_first" nil}}</h2>
<p><strong>{{.Label}}</strong>{{if .Gain}} ({{.Gain}}){{end}}: {{.Recommendation}}</p>
{{end -}}
<h2 style="font-size: 16px;">{{.W.T "mail.quick_wins" nil}}</h2>
{{if .QuickWins}}<ol>{{range .QuickWins}}<li><strong>{{.Label}}</strong>{{if .Gain}} ({{.Gain}}){{end}}: {{.Recommendation}}</li>{{end}}</ol>{{else}}<p>{{.W.T "mail.no_quick_wins" nil}}</p>{{end}}
{{- end}}
{{if .ReportURL}}<p><a href="{{.ReportURL}}">{{.W.T "mail.report" nil}}</a> ({{.W.Tf "mail.opens_until_inline" "Date" .ShareUntil}}){{if .PDFURL}} · <a href="{{.PDFURL}}">PDF</a> ({{.W.Tf "mail.needs_key_inline" "Key" .KeyNote}}){{end}}</p>
{{end}}<p style="color: #5b6775; font-size: 12px;">{{if .NextRun}}{{.W.Tf "mail.next_run" "Frequency" .Frequency "Date" .NextRun}} {{end}}{{.W.Tf "mail.receive" "ID" .ScheduleID}}</p>
{{if .BrandLines}}<p style="color: #5b6775; font-size: 12px; border-top: 1px solid #e2e6ea; padding-top: 8px;">{{range $i, $l := .BrandLines}}{{if $i}}<br>{{end}}{{$l}}{{end}}</p>
{{end -}}
</body></html>
`))
