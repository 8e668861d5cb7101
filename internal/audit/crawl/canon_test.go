package crawl

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCanonicalize(t *testing.T) {
	t.Parallel()
	base, err := url.Parse("https://example.com/blog/post/")
	require.NoError(t, err)
	cases := []struct{ in, want string }{
		{"HTTPS://Example.COM:443/a?b=2&a=1#frag", "https://example.com/a?a=1&b=2"},
		{"http://example.com:80", "http://example.com/"},
		{"https://example.com:8443/x", "https://example.com:8443/x"},
		{"https://example.com./x/../y/./z", "https://example.com/y/z"},
		{"https://user:pw@example.com/", "https://example.com/"},
		{"https://example.com/p?utm_source=news&utm_medium=mail&id=7&gclid=abc&fbclid=x&ref=tw", "https://example.com/p?id=7"},
		{"https://example.com/p?msclkid=1&mc_cid=2&mc_eid=3&_ga=4&UTM_Campaign=5", "https://example.com/p"},
		{"https://example.com/p?&&b=1&", "https://example.com/p?b=1"},
		{"../other?x=1", "https://example.com/blog/other?x=1"},
		{"/root", "https://example.com/root"},
		{"  https://example.com/trim  ", "https://example.com/trim"},
		{"https://[2001:db8::1]:443/v6", "https://[2001:db8::1]/v6"},
		{"https://example.com/p?a b=1&  #x", "https://example.com/p?a%20b=1"},
	}
	for _, c := range cases {
		u, err := Canonicalize(base, c.in)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, u.String(), c.in)
	}
	for _, bad := range []string{"", "mailto:a@example.com", "javascript:alert(1)", "ftp://example.com/", "https://", "%zz", "//::"} {
		_, err := Canonicalize(base, bad)
		require.Error(t, err, bad)
	}
	_, err = Canonicalize(nil, "/relative")
	require.Error(t, err)
}

func TestTemplate(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"/", "/"},
		{"/about", "/about"},
		{"/about-us", "/{slug}"},
		{"/blog/", "/blog"},
		{"/blog/2024/05/some-post", "/blog/{yyyy}/{mm}/{slug}"},
		{"/blog/2024/05/31/x", "/blog/{yyyy}/{mm}/{dd}/{slug}"},
		{"/blog/2024/05", "/blog/{yyyy}/{mm}"},
		{"/products/123", "/products/{id}"},
		{"/products/123?color=red&Size=l", "/products/{id}?color&size"},
		{"/products/blue-widget.html", "/products/{slug}.html"},
		{"/docs/install", "/docs/{slug}"},
		{"/docs/guide/install", "/docs/guide/{slug}"},
		{"/events/2024-05-12", "/events/{date}"},
		{"/o/3f2504e0-4f89-11d3-9a0c-0305e82c3301/view", "/o/{hash}/{slug}"},
		{"/c/9f86d081884c7d65/view", "/c/{hash}/{slug}"},
		{"/v/aB3dE5fG7hJ9kL1m", "/v/{hash}"},
		{"/page/2", "/page/{id}"},
	}
	for _, c := range cases {
		u, err := Canonicalize(nil, "https://example.com"+c.in)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, Template(u), c.in)
	}
}

func TestRefusalBoundsTraps(t *testing.T) {
	t.Parallel()
	cases := []struct {
		path string
		want Reason
	}{
		{"/a/b/c", ""},
		{"/logo.PNG", ReasonNotAPage},
		{"/files/report.pdf", ReasonNotAPage},
		{"/a/b/a/b/a/b", ReasonRepeated},
		{"/x/x/y", ""},
		{"/1/2/3/4/5/6/7/8/9/10/11/12/13", ReasonTooDeep},
		{"/1/2/3/4/5/6/7/8/9/10/11/12", ""},
	}
	for _, c := range cases {
		u, err := Canonicalize(nil, "https://example.com"+c.path)
		require.NoError(t, err)
		require.Equal(t, c.want, refusal(u, 12), c.path)
	}
	long, err := Canonicalize(nil, "https://example.com/?q="+strings.Repeat("x", 3000))
	require.NoError(t, err)
	require.Equal(t, ReasonTooLong, refusal(long, 12))
}

func TestScopeMergesOnlyTheTwinItWasGiven(t *testing.T) {
	t.Parallel()
	own := func(s scope, raw string) (string, bool) {
		u, err := Canonicalize(nil, raw)
		require.NoError(t, err)
		ok := s.own(u)
		return u.String(), ok
	}
	alone := scope{scheme: "https", host: "www.example.com"}
	_, ok := own(alone, "https://example.com/a")
	require.False(t, ok, "without a redirect the apex is another site")
	got, ok := own(alone, "http://www.example.com/a")
	require.True(t, ok)
	require.Equal(t, "https://www.example.com/a", got, "http:// of the host is the site")

	merged := scope{scheme: "https", host: "www.example.com", twin: "example.com"}
	got, ok = own(merged, "https://example.com/a")
	require.True(t, ok)
	require.Equal(t, "https://www.example.com/a", got)
	_, ok = own(merged, "https://blog.example.com/a")
	require.False(t, ok)
	require.True(t, twinOf("www.example.com", "example.com"))
	require.False(t, twinOf("blog.example.com", "example.com"))
}
