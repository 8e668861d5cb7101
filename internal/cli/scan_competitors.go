package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// printBenchmark shows the report's competitor benchmark, as the PDF does:
// the rings of the site and of each competitor side by side (the site's
// scored on the competitors' footing, without the AI mention checks),
// the share of voice of every brand, the sources cited by kind and the
// sites cited for competitors and never for this one. A report without
// competitors prints nothing. Every text of the report is escaped
// (printf).
func printBenchmark(w io.Writer, r *client.Report) error {
	if r.Competitors == nil || len(*r.Competitors) == 0 {
		return nil
	}
	own := fmt.Sprintf("%.1f %s", r.OverallScore, r.OverallGrade)
	rings := []string{gradedRing(r.Rings.Search.Score, string(r.Rings.Search.Grade)), gradedRing(r.Rings.Visibility.Score, string(r.Rings.Visibility.Grade)), gradedRing(r.Rings.Trust.Score, string(r.Rings.Trust.Grade))}
	checks := make([]scoring.CheckScore, 0, len(r.Checks))
	for _, c := range r.Checks {
		checks = append(checks, scoring.CheckScore{ID: c.ID, Ring: scoring.Ring(c.Ring), Pillar: c.Pillar, Weight: c.Weight, Status: string(c.Status)})
	}
	if s, ok := report.CompetitorFooting(r.ScoringVersion, checks); ok {
		fmt.Fprintln(w, "\nCompetitor benchmark: each site audited with the same rubric and page budget, from its pages;")
		fmt.Fprintln(w, "your scores here leave out the AI mention checks, as the competitors' do.")
		own = fmt.Sprintf("%.1f %s", s.Overall, s.OverallGrade.Grade)
		for i, ring := range []scoring.Ring{scoring.RingSearch, scoring.RingVisibility, scoring.RingTrust} {
			rings[i] = gradedRing(s.Ring(ring).Score, s.Ring(ring).Grade.Grade)
		}
	} else {
		fmt.Fprintln(w, "\nCompetitor benchmark: each site audited with the same rubric and page budget, from its pages;")
		fmt.Fprintln(w, "your scores here are the report's, AI mention checks included; the competitors' leave them out.")
	}
	pages := r.Fetch.Pages
	if r.Site != nil {
		pages = r.Site.PagesAudited
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "SITE\tHOST\tOVERALL\tSEARCH\tAI VISIBILITY\tAI TRUST\tPAGES")
	printf(tw, "%s (you)\t%s\t%s\t%s\t%s\t%s\t%d\n", r.BrandName, hostOf(r.URL), own, rings[0], rings[1], rings[2], pages)
	for _, c := range *r.Competitors {
		if c.Status != client.CompetitorAudited || c.Rings == nil || c.OverallScore == nil || c.OverallGrade == nil {
			reason := ""
			if c.Reason != nil {
				reason = *c.Reason
			}
			printf(tw, "%s\t%s\tnot audited: %s\t\t\t\t\n", c.Brand, c.Host, strings.TrimSuffix(reason, "."))
			continue
		}
		printf(tw, "%s\t%s\t%.1f %s\t%s\t%s\t%s\t%d\n", c.Brand, c.Host, *c.OverallScore, *c.OverallGrade,
			gradedRing(c.Rings.Search.Score, string(c.Rings.Search.Grade)), gradedRing(c.Rings.Visibility.Score, string(c.Rings.Visibility.Grade)),
			gradedRing(c.Rings.Trust.Score, string(c.Rings.Trust.Grade)), c.PagesAudited)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printShareOfVoice(w, r.ShareOfVoice)
}

func printShareOfVoice(w io.Writer, s *client.ShareOfVoice) error {
	if s == nil {
		return nil
	}
	if s.Status != client.ShareOfVoiceMeasured {
		reason := ""
		if s.Reason != nil {
			reason = *s.Reason
		}
		printf(w, "\nShare of voice in AI answers: not measured: %s.\n", strings.TrimSuffix(reason, "."))
		return nil
	}
	set := ""
	if s.PromptSet != nil {
		set = *s.PromptSet
	}
	printf(w, "\nShare of voice in AI answers (prompt set %s): answers to the buyer questions naming each brand,\n", set)
	fmt.Fprintln(w, "of those read (failed answers left out), with the 95% interval and the mean position among the brands named.")
	tw := newTable(w)
	fmt.Fprintln(tw, "BRAND\tENGINE\tNAMED\tRATE\t95% INTERVAL\tPOSITION")
	small := false
	row := func(brand, engine string, k, n int, rate *float64, in *client.ConfidenceInterval, pos *float64, isSmall bool) {
		named := fmt.Sprintf("%d of %d", k, n)
		switch {
		case n == 0:
			named = "no answer read (not checked)"
		case isSmall:
			named += " (small sample)"
		}
		small = small || isSmall
		cells := []string{"-", "-", "-"}
		if rate != nil {
			cells[0] = fmt.Sprintf("%.0f%%", 100**rate)
		}
		if in != nil {
			cells[1] = fmt.Sprintf("%.0f–%.0f%%", 100*in.Low, 100*in.High)
		}
		if pos != nil {
			cells[2] = fmt.Sprintf("%.1f", *pos)
		}
		printf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", brand, engine, named, cells[0], cells[1], cells[2])
	}
	for _, b := range s.Brands {
		brand := b.Brand
		if b.You {
			brand += " (you)"
		}
		row(brand, "all", b.K, b.N, b.Rate, b.Interval, b.MeanPosition, b.SmallSample)
		for _, e := range b.Engines {
			row("", e.Engine, e.K, e.N, e.Rate, e.Interval, e.MeanPosition, e.SmallSample)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if small {
		printf(w, "A small sample is fewer than %d answers: too few to read a rate from.\n", mentions.MinDecisiveRuns)
	}
	if s.CitingCompetitorsNotYou == nil {
		fmt.Fprintln(w, "\nSources: not measured; no answer read cited a source (engines cite them when they search the web).")
		return nil
	}
	fmt.Fprintln(w, "\nSources cited in answers naming a brand, by kind (answers citing each):")
	for _, kind := range []client.ShareOfVoiceSourcesCategory{
		client.SourceOwnSite, client.SourceCompetitor, client.SourceMarketplace, client.SourceEditorial, client.SourceReview, client.SourceOther,
	} {
		listed := false
		for _, src := range s.Sources {
			if src.Category != kind {
				continue
			}
			if listed {
				fmt.Fprint(w, ", ")
			} else {
				printf(w, "  %s: ", strings.ReplaceAll(string(kind), "_", " "))
			}
			printf(w, "%s (%d)", src.Domain, src.Citations)
			listed = true
		}
		if listed {
			fmt.Fprintln(w)
		}
	}
	if len(*s.CitingCompetitorsNotYou) == 0 {
		fmt.Fprintln(w, "Cited for competitors, never for you: none.")
		return nil
	}
	fmt.Fprint(w, "Cited for competitors, never for you: ")
	for i, d := range *s.CitingCompetitorsNotYou {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		printf(w, "%s", d)
	}
	fmt.Fprintln(w, ".")
	return nil
}

func gradedRing(score int, grade string) string { return fmt.Sprintf("%d %s", score, grade) }
