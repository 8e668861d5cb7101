package fixes

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each platform Site Triage names gets its own steps, naming the setting
// or file to change there; anything else gets the generic ones.
func TestPlatformSteps(t *testing.T) {
	t.Parallel()
	robotsEdit := map[string]string{
		"WordPress":   "Yoast SEO → Tools → File editor",
		"Shopify":     "robots.txt.liquid",
		"Next.js":     "app/robots.ts",
		"Wix":         "Robots.txt Editor",
		"Squarespace": "does not let it be edited",
		"Drupal":      "RobotsTxt module",
		"Webflow":     "Site settings → SEO",
	}
	for name, names := range robotsEdit {
		p := Platform{Known: true, CMS: name}
		if name == "Next.js" {
			p = Platform{Known: true, Framework: name}
		}
		def := platformFor(p)
		require.Equal(t, name, def.name)
		require.Contains(t, strings.Join(def.stepsFor(topicRobotsEdit), " "), names, name)
		for tp := topicRobotsEdit; tp <= topicEdge; tp++ {
			require.NotEmpty(t, def.stepsFor(tp), "%s, topic %d", name, tp)
		}
		for _, tp := range []topic{topicRobotsEdit, topicRobotsServe, topicLLMsTxt, topicSchema, topicHead} {
			require.NotEqual(t, generic.stepsFor(tp), def.stepsFor(tp), "%s writes its own steps for topic %d", name, tp)
		}
	}
	require.Equal(t, genericPlatform, platformFor(Platform{Known: true, CMS: "Hugo"}).name)
	require.Equal(t, "WordPress", platformFor(Platform{Known: true, CMS: "WordPress", Framework: "Next.js"}).name, "the CMS's settings first")

	s := &scan{plat: platformFor(Platform{CMS: "WordPress"}), in: Input{Platform: Platform{CMS: "WordPress", Technologies: []string{"Rank Math"}}}}
	require.Contains(t, s.steps(topicHead)[0], "Rank Math", "the SEO plugin seen leads")
	require.Equal(t, s.plat.stepsFor(topicLLMsTxt), s.steps(topicLLMsTxt), "the plugin does not write llms.txt")

	edge := edgeSteps(Platform{Technologies: []string{"Akamai"}}, generic)
	require.Contains(t, edge[0], "Bot Manager")
	require.Contains(t, strings.Join(edgeSteps(Platform{CMS: "Shopify"}, platformFor(Platform{CMS: "Shopify"})), " "), "Shopify runs the edge")
}
