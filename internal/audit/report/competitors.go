package report

import (
	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The competitor benchmark of a report: the competitors' sites audited
// beside the site (audit/competitors.go) and the brand's share of the
// buyer answers beside theirs (mentions/share.go). Like the
// agent-readiness lens it is the same for both audiences and stored once
// (Stored.Competitors, Stored.ShareOfVoice); a scan that named no
// competitor has neither, so its report is what it was before.

// CompetitorInput is one competitor's audit as the report records it.
type CompetitorInput struct {
	URL, Host, Brand string
	// Status is audited or failed; Reason says why it failed.
	Status, Reason string
	PagesAudited   int
	// Scores are its homepage audit's; nil when it failed.
	Scores *scoring.Result
}

// AttachBenchmark records the competitors' audits and the share of voice
// in doc; nothing without competitors.
func AttachBenchmark(doc *Stored, competitors []CompetitorInput, sov *mentions.ShareOfVoice) {
	if doc == nil || len(competitors) == 0 {
		return
	}
	list := make([]api.CompetitorAudit, 0, len(competitors))
	for _, c := range competitors {
		list = append(list, competitorAudit(c))
	}
	doc.Competitors = &list
	if sov != nil {
		doc.ShareOfVoice = shareOfVoice(sov)
	}
}

func competitorAudit(c CompetitorInput) api.CompetitorAudit {
	out := api.CompetitorAudit{
		URL: c.URL, Host: c.Host, Brand: c.Brand, Status: api.CompetitorAuditStatus(c.Status), PagesAudited: c.PagesAudited,
	}
	if c.Reason != "" {
		out.Reason = new(c.Reason)
	}
	if s := c.Scores; s != nil {
		out.OverallScore = new(s.Overall)
		out.OverallGrade = new(api.Grade(s.OverallGrade.Grade))
		ring := func(r scoring.Ring) api.CompetitorRing {
			rr := s.Ring(r)
			return api.CompetitorRing{Score: rr.Score, Grade: api.Grade(rr.Grade.Grade)}
		}
		out.Rings = &struct {
			Search     api.CompetitorRing `json:"search"`
			Trust      api.CompetitorRing `json:"trust"`
			Visibility api.CompetitorRing `json:"visibility"`
		}{Search: ring(scoring.RingSearch), Trust: ring(scoring.RingTrust), Visibility: ring(scoring.RingVisibility)}
	}
	return out
}

// shareOfVoice is s in the contract's shape. Sources not measured leave
// citing_competitors_not_you null, as the contract says.
func shareOfVoice(s *mentions.ShareOfVoice) *api.ShareOfVoice {
	out := &api.ShareOfVoice{
		Status: api.ShareOfVoiceStatus(s.Status), PromptSet: new(s.PromptSet), SmallSample: new(s.SmallSample),
		Brands: []api.ShareOfVoiceBrand{},
		Sources: []struct {
			Brands    []string                        `json:"brands"`
			Category  api.ShareOfVoiceSourcesCategory `json:"category"`
			Citations int                             `json:"citations"`
			Domain    string                          `json:"domain"`
		}{},
	}
	if s.Reason != "" {
		out.Reason = new(s.Reason)
	}
	for _, b := range s.Brands {
		ab := api.ShareOfVoiceBrand{
			Brand: b.Brand, Domain: b.Domain, You: b.You, K: b.K, N: b.N, Rate: b.Rate, Interval: interval(b.Interval),
			MeanPosition: b.MeanPosition, SmallSample: b.SmallSample,
		}
		ab.Engines = make([]struct {
			Engine       string                  `json:"engine"`
			Interval     *api.ConfidenceInterval `json:"interval"`
			K            int                     `json:"k"`
			MeanPosition *float64                `json:"mean_position"`
			N            int                     `json:"n"`
			Rate         *float64                `json:"rate"`
			SmallSample  bool                    `json:"small_sample"`
		}, len(b.Engines))
		for i, e := range b.Engines {
			ab.Engines[i].Engine, ab.Engines[i].K, ab.Engines[i].N = e.Engine, e.K, e.N
			ab.Engines[i].Rate, ab.Engines[i].Interval, ab.Engines[i].MeanPosition = e.Rate, interval(e.Interval), e.MeanPosition
			ab.Engines[i].SmallSample = e.SmallSample
		}
		out.Brands = append(out.Brands, ab)
	}
	for _, src := range s.Sources {
		out.Sources = append(out.Sources, struct {
			Brands    []string                        `json:"brands"`
			Category  api.ShareOfVoiceSourcesCategory `json:"category"`
			Citations int                             `json:"citations"`
			Domain    string                          `json:"domain"`
		}{Brands: src.Brands, Category: api.ShareOfVoiceSourcesCategory(src.Category), Citations: src.Citations, Domain: src.Domain})
	}
	if s.Status == mentions.ShareMeasured && s.SourcesNotMeasured == "" {
		out.CitingCompetitorsNotYou = new(append([]string{}, s.CitingCompetitorsNotYou...))
	}
	if s.SourcesNotMeasured != "" {
		out.SourcesReason = new(s.SourcesNotMeasured)
	}
	return out
}

func interval(i *mentions.Interval) *api.ConfidenceInterval {
	if i == nil {
		return nil
	}
	return &api.ConfidenceInterval{Low: i.Low, High: i.High}
}

// aiMentionsPillar is the pillar whose checks ask answer engines about the
// brand: a competitor is never asked, so its scores leave it out.
const aiMentionsPillar = "ai_mentions"

// CompetitorFooting scores a report's checks on its competitors' footing:
// the AI mention checks not applicable, as a competitor's are, so the
// site's rings can be set beside theirs. ok is false for a report scored
// by another rubric (version) than today's, whose checks cannot be
// rescored the way they were scored.
func CompetitorFooting(version string, checks []scoring.CheckScore) (s scoring.Result, ok bool) {
	if version != scoring.Version {
		return s, false
	}
	scored := make([]scoring.CheckScore, len(checks))
	for i, c := range checks {
		if c.Pillar == aiMentionsPillar {
			c.Status = string(api.CheckStatusNa)
		}
		scored[i] = c
	}
	return scoring.Score(scored), true
}

// baseline is r's scores on its competitors' footing (CompetitorFooting).
func baseline(r api.Report) (scoring.Result, bool) {
	checks := make([]scoring.CheckScore, 0, len(r.Checks))
	for _, c := range r.Checks {
		checks = append(checks, scoring.CheckScore{ID: c.ID, Ring: scoring.Ring(c.Ring), Pillar: c.Pillar, Weight: c.Weight, Status: string(c.Status)})
	}
	return CompetitorFooting(r.ScoringVersion, checks)
}
