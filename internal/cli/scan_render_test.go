package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
)

func TestReportShowsWhatTheBrowserSaw(t *testing.T) {
	t.Parallel()
	r := &client.Report{Rendering: &client.RenderCoverage{
		Mode:           client.RenderModeRendered,
		UnsampledPages: 7,
		Pages: []client.RenderedPage{
			{
				URL: "https://shop.test/", Rendered: true, Summary: "505 of 530 words appear only after JavaScript.",
				Comparison: &client.RenderComparison{RawWords: 25, RenderedWords: 530},
			},
			{URL: "https://shop.test/p/\x1b[31mred", Rendered: false, Reason: "timed out after 15s"},
			{URL: "https://shop.test/about", Rendered: true, Comparison: &client.RenderComparison{RawWords: 300, RenderedWords: 300}},
		},
	}}
	var out bytes.Buffer
	require.NoError(t, printRendering(&out, r))
	got := out.String()
	require.Contains(t, got, "Rendered in a browser: 2 of 3 pages tried (7 more judged from their HTML only).")
	require.Regexp(t, `25\s+530\s+https://shop.test/\s+505 of 530 words appear only after JavaScript\.`, got)
	require.Regexp(t, `300\s+300\s+https://shop.test/about\s+nothing`, got)
	require.Contains(t, got, "not rendered: timed out after 15s")
	require.NotContains(t, got, "\x1b", "a page's URL cannot drive the terminal")

	for mode, want := range map[client.RenderCoverageMode]string{
		client.RenderModeOff:         "Rendering: off",
		client.RenderModeUnavailable: "Rendering: no browser was available",
	} {
		out.Reset()
		require.NoError(t, printRendering(&out, &client.Report{Rendering: &client.RenderCoverage{Mode: mode}}))
		require.Contains(t, out.String(), want)
	}
	out.Reset()
	require.NoError(t, printRendering(&out, &client.Report{}))
	require.Empty(t, out.String(), "a report made before rendering existed shows nothing")
}
