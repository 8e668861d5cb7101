package fetch

import (
	"slices"
	"strings"
	"testing"
)

// FuzzLLMsTxtLinks: the links sampled from any llms.txt are at most n,
// distinct, absolute https URLs, in order.
func FuzzLLMsTxtLinks(f *testing.F) {
	for _, s := range []string{
		"# Lumen Docs\n\n> Docs.\n\n## Guides\n\n- [Install](https://lumen.example/docs/install.md): first steps\n- [Deploy](https://lumen.example/docs/deploy.md)\n- [Install again](https://lumen.example/docs/install.md)\n",
		"- [a](http://plain.example/)\n- [b](/relative)\n- [c]( https://spaced.example/ )\n- [d](https://x.example/a(b))\n",
		"[x](https://a.example/\x00)[y](https://b.example/\xff)",
		strings.Repeat("[l](https://example.com/p)", 50),
		"",
	} {
		f.Add([]byte(s), 5)
	}
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n < 1 || n > 50 {
			return
		}
		links := llmsTxtLinks(&Response{Status: 200, Body: body}, n)
		if len(links) > n {
			t.Fatalf("%d links for n=%d", len(links), n)
		}
		if !slices.IsSorted(links) || len(slices.Compact(slices.Clone(links))) != len(links) {
			t.Fatalf("links not sorted and distinct: %q", links)
		}
		for _, l := range links {
			if !strings.HasPrefix(l, "https://") || strings.ContainsAny(l, " )\t\n") {
				t.Fatalf("link %q", l)
			}
		}
		if llmsTxtLinks(&Response{Status: 404, Body: body}, n) != nil {
			t.Fatal("links read from a 404")
		}
	})
}
