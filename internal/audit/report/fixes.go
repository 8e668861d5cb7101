package report

import (
	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/fixes"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// AttachFixes gives each check result of both editions the fix written
// for it. As everywhere in the report, the audience changes only the
// texts: the summary and the verification steps are worded for a
// non-technical reader in the marketing edition; the edits, commands and
// artifact are the same in both.
func AttachFixes(s *Stored, list []fixes.Fix) {
	byID := make(map[string]fixes.Fix, len(list))
	for _, f := range list {
		byID[f.CheckID] = f
	}
	for _, r := range []*api.Report{&s.Marketing, &s.Engineering} {
		audience := scoring.Marketing
		if r.Audience == api.ReportAudienceEngineering {
			audience = scoring.Engineering
		}
		for i := range r.Checks {
			if f, ok := byID[r.Checks[i].ID]; ok {
				fx := CheckFix(f, audience)
				r.Checks[i].Fix = &fx
			}
		}
	}
}

// CheckFix renders one fix for an audience.
func CheckFix(f fixes.Fix, audience scoring.Audience) api.CheckFix {
	eng := audience == scoring.Engineering
	out := api.CheckFix{
		Cause: string(f.Cause), Platform: f.Platform, Summary: f.Summary.Marketing,
		Edits: nonNilStrings(f.Edits), PlatformSteps: nonNilStrings(f.PlatformSteps), Verify: []api.FixVerification{},
		Review: nonNilStrings(f.Review), Notes: nonNilStrings(f.Notes),
	}
	if eng {
		out.Summary = f.Summary.Engineering
	}
	for _, v := range f.Verify {
		step := api.FixVerification{Step: v.Step.Marketing}
		if eng {
			step.Step = v.Step.Engineering
		}
		if v.Command != "" {
			c := v.Command
			step.Command = &c
		}
		out.Verify = append(out.Verify, step)
	}
	if a := f.Artifact; a != nil {
		out.Artifact = &api.FixArtifact{
			Filename: a.Filename, MediaType: a.MediaType, Kind: api.FixArtifactKind(a.Kind), Location: a.Location,
			Content: a.Content, Checked: nonNilStrings(a.Checked),
		}
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return append([]string{}, s...)
}
