package agentready

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseLinkHeaders(t *testing.T) {
	t.Parallel()
	base, err := url.Parse("https://example.test/shop/")
	require.NoError(t, err)

	tests := []struct {
		name     string
		values   []string
		targets  []string
		rels     [][]string
		params   []map[string]string
		problems int
	}{
		{
			name:    "one link, quoted rel",
			values:  []string{`</api/openapi.json>; rel="service-desc"; type="application/openapi+json"`},
			targets: []string{"https://example.test/api/openapi.json"},
			rels:    [][]string{{"service-desc"}},
			params:  []map[string]string{{"type": "application/openapi+json"}},
		},
		{
			name:    "several links in one value and in several headers",
			values:  []string{`<https://example.test/a>; rel=describedby, </llms.txt>; rel="llms-txt"`, `<other>; rel=preload; as=style`},
			targets: []string{"https://example.test/a", "https://example.test/llms.txt", "https://example.test/shop/other"},
			rels:    [][]string{{"describedby"}, {"llms-txt"}, {"preload"}},
		},
		{
			name:    "commas and semicolons inside quotes and the URI",
			values:  []string{`<https://example.test/x?a=1,2;b>; rel="alternate describedby"; title="one, two; three", </y>; rel=next`},
			targets: []string{"https://example.test/x?a=1,2;b", "https://example.test/y"},
			rels:    [][]string{{"alternate", "describedby"}, {"next"}},
			params:  []map[string]string{{"title": "one, two; three"}, {}},
		},
		{
			name:    "escaped quote in a quoted string",
			values:  []string{`</md>; rel=alternate; type="text/markdown"; title="the \"plain\" text"`},
			targets: []string{"https://example.test/md"},
			rels:    [][]string{{"alternate"}},
			params:  []map[string]string{{"type": "text/markdown", "title": `the "plain" text`}},
		},
		{
			name:    "only the first rel counts, case folded",
			values:  []string{`</a>; REL="Service-Doc"; rel=describedby`},
			targets: []string{"https://example.test/a"},
			rels:    [][]string{{"service-doc"}},
		},
		{
			name:     "unterminated quote spoils only its link",
			values:   []string{`</a>; rel="describedby, </b>; rel=api-catalog`},
			problems: 1,
		},
		{
			// The unclosed <URI> runs to the next '>', swallowing the link
			// after it: two problems, and the good link still read.
			name:     "broken links among good ones",
			values:   []string{`no-brackets; rel=x, </ok>; rel=api-catalog, <unclosed; rel=y, </norel>; type=text/plain`},
			targets:  []string{"https://example.test/ok"},
			rels:     [][]string{{"api-catalog"}},
			problems: 2,
		},
		{
			name:   "empty values and stray commas",
			values: []string{``, ` , ,`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			links, problems := ParseLinkHeaders(tt.values, base)
			require.Len(t, problems, tt.problems, "problems: %v", problems)
			require.Len(t, links, len(tt.targets))
			for i, l := range links {
				require.Equal(t, tt.targets[i], l.Resolved)
				require.Equal(t, tt.rels[i], l.Rels)
				if tt.params != nil {
					for k, v := range tt.params[i] {
						require.Equal(t, v, l.Params[k], k)
					}
				}
			}
		})
	}
}

func TestParseLinkHeadersBoundsTheLinks(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat(`</a>; rel=next, `, 10000)
	links, problems := ParseLinkHeaders([]string{huge}, nil)
	require.Len(t, links, maxLinks)
	require.Len(t, problems, 1)
	require.Contains(t, problems[0], "the rest were not read")
}

func TestLinkForAgents(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		link Link
		want bool
	}{
		{Link{Rels: []string{"describedby"}}, true},
		{Link{Rels: []string{"api-catalog"}}, true},
		{Link{Rels: []string{"alternate"}, Params: map[string]string{"type": "text/markdown; charset=utf-8"}}, true},
		{Link{Rels: []string{"alternate"}, Params: map[string]string{"type": "TEXT/MARKDOWN"}}, true},
		{Link{Rels: []string{"alternate"}, Params: map[string]string{"type": "text/html", "hreflang": "de"}}, false},
		{Link{Rels: []string{"preload"}, Params: map[string]string{}}, false},
	} {
		require.Equal(t, tt.want, tt.link.ForAgents(), "%+v", tt.link)
	}
}

// Whatever a Link header holds, parsing ends, keeps at most maxLinks links
// and gives each one a rel.
func FuzzParseLinkHeaders(f *testing.F) {
	for _, seed := range []string{
		`</a>; rel="describedby"`, `<a>; rel="x, <b>; rel=y`, `<<<>>>;;;rel==`, `</a>; rel=alternate; type="text/markdown"; title*=UTF-8''caf%C3%A9`,
		"\"\\", `<a>; rel="\"`, strings.Repeat(`<x>;rel=a,`, 100),
	} {
		f.Add(seed)
	}
	base, _ := url.Parse("https://example.test/")
	f.Fuzz(func(t *testing.T, v string) {
		links, _ := ParseLinkHeaders([]string{v, v}, base)
		require.LessOrEqual(t, len(links), maxLinks)
		for _, l := range links {
			require.NotEmpty(t, l.Rels)
			_ = l.ForAgents()
		}
	})
}
