package robots

import (
	"strings"
	"testing"
)

// The cases below restate, as facts, the expectations of Google's own
// robots.txt test suite (robots_test.cc in google/robotstxt): for each
// file, agent and URL, the verdict Googlebot's parser gives. Verdicts come
// from File.Allowed, so they prove the whole path — the in-house reading,
// the body handed to the matcher and the matcher itself. Two
// percent-encoding cases are deliberate deviations, marked rfc9309.

type googleCase struct {
	robots, agent, url string
	allowed            bool
	// rfc9309 marks an expectation that differs from Google's matcher
	// because RFC 9309 section 2.2.2 says otherwise (see normalize).
	rfc9309 bool
}

func runGoogleCases(t *testing.T, name string, cases []googleCase) {
	t.Helper()
	for i, c := range cases {
		v := ParseBody(c.robots).Allowed(c.agent, c.url)
		if v.Allowed != c.allowed {
			t.Errorf("%s #%d: %s %s = %v, want %v (%s)\n%s", name, i, c.agent, c.url, v.Allowed, c.allowed, v.Reason, c.robots)
		}
	}
}

func TestGoogleSuiteLineSyntax(t *testing.T) {
	const url = "http://foo.bar/x/y"
	runGoogleCases(t, "line syntax", []googleCase{
		// Empty file, empty agent: everything allowed.
		{"", "FooBot", "", true, false},
		{"user-agent: FooBot\ndisallow: /\n", "", "", true, false},
		{"user-agent: FooBot\ndisallow: /\n", "FooBot", "", false, false},
		{"user-agent: FooBot\ndisallow: /\n", "FooBot", url, false, false},
		{"foo: FooBot\nbar: /\n", "FooBot", url, true, false},
		// A missing colon is read as if it were there.
		{"user-agent FooBot\ndisallow /\n", "FooBot", url, false, false},
		// Keys are case-insensitive.
		{"USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", "http://foo.bar/x/y", true, false},
		{"uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FooBot", "http://foo.bar/a/b", false, false},
		// Agent values are case-insensitive and read up to the first space.
		{"User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "foo", "http://foo.bar/x/y", true, false},
		{"User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "Foo", "http://foo.bar/a/b", false, false},
		{"User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo", url, true, false},
		{"User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo Bar", url, false, false},
	})
}

func TestGoogleSuiteGroups(t *testing.T) {
	const robots = "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n"
	runGoogleCases(t, "groups", []googleCase{
		{robots, "FooBot", "http://foo.bar/x/b", true, false},
		{robots, "FooBot", "http://foo.bar/z/d", true, false},
		{robots, "FooBot", "http://foo.bar/y/c", false, false},
		{robots, "BarBot", "http://foo.bar/y/c", true, false},
		{robots, "BarBot", "http://foo.bar/w/a", true, false},
		{robots, "BarBot", "http://foo.bar/z/d", false, false},
		{robots, "BazBot", "http://foo.bar/z/d", true, false},
		// Rules before any group apply to nobody.
		{robots, "FooBot", "http://foo.bar/foo/bar/", false, false},
		{robots, "BarBot", "http://foo.bar/foo/bar/", false, false},
		{robots, "BazBot", "http://foo.bar/foo/bar/", false, false},
		// The * group applies only when no group names the agent.
		{"", "FooBot", "http://foo.bar/x/y", true, false},
		{"user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "FooBot", "http://foo.bar/x/y", false, false},
		{"user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "BarBot", "http://foo.bar/x/y", true, false},
		{"user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n", "QuxBot", "http://foo.bar/x/y", true, false},
		{"User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", true, false},
		{"User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", false, false},
	})
}

func TestGoogleSuiteLongestMatch(t *testing.T) {
	const page = "http://foo.bar/x/page.html"
	runGoogleCases(t, "longest match", []googleCase{
		// Paths are case-sensitive.
		{"user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", false, false},
		{"user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y", true, false},
		{"user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", page, false, false},
		{"user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", page, true, false},
		{"user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", false, false},
		// Equal patterns: Allow wins.
		{"user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", page, true, false},
		{"user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", page, true, false},
		{"user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", page, true, false},
		{"user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", false, false},
		{"user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", true, false},
		{"user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", false, false},
		{"user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", true, false},
		{"user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", page, true, false},
		{"user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", false, false},
		// Order of precedence from Google's documentation.
		{"user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true, false},
		{"user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true, false},
		{"user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false, false},
		{"user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", true, false},
		{"user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", false, false},
	})
}

func TestGoogleSuiteEncoding(t *testing.T) {
	runGoogleCases(t, "encoding", []googleCase{
		{"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true, false},
		{"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, false},
		{"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, false},
		// Google's matcher does not encode the URL, so a raw "ツ" misses
		// the rule there; a crawler requests the encoded form, which is
		// what the path is normalized to here.
		{"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/ツ", true, true},
		// Google compares escapes of unreserved characters literally and
		// does not match; RFC 9309's table matches them.
		{"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/baz", true, true},
		{"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/%62%61%7A", true, false},
	})
}

func TestGoogleSuiteSpecialCharacters(t *testing.T) {
	const star = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
	const dollar = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
	const comment = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n"
	runGoogleCases(t, "special characters", []googleCase{
		{star, "FooBot", "http://foo.bar/foo/bar/quz", false, false},
		{star, "FooBot", "http://foo.bar/foo/quz", true, false},
		{star, "FooBot", "http://foo.bar/foo//quz", true, false},
		{star, "FooBot", "http://foo.bar/foo/bax/quz", true, false},
		{dollar, "FooBot", "http://foo.bar/foo/bar", false, false},
		{dollar, "FooBot", "http://foo.bar/foo/bar/qux", true, false},
		{dollar, "FooBot", "http://foo.bar/foo/bar/", true, false},
		{dollar, "FooBot", "http://foo.bar/foo/bar/baz", true, false},
		{comment, "FooBot", "http://foo.bar/foo/bar", true, false},
		{comment, "FooBot", "http://foo.bar/foo/quz", false, false},
		// index.html at the end of an Allow also allows the directory.
		{"User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/", true, false},
		{"User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/index.htm", false, false},
		{"User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/index.html", true, false},
		{"User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/anyother-url", false, false},
	})
}

func TestGoogleSuiteDocumentation(t *testing.T) {
	type row struct {
		url     string
		allowed bool
	}
	groups := []struct {
		allow string
		rows  []row
	}{
		{"/fish", []row{
			{"/bar", false},
			{"/fish", true},
			{"/fish.html", true},
			{"/fish/salmon.html", true},
			{"/fishheads", true},
			{"/fishheads/yummy.html", true},
			{"/fish.html?id=anything", true},
			{"/Fish.asp", false},
			{"/catfish", false},
			{"/?id=fish", false},
		}},
		{"/fish*", []row{
			{"/bar", false},
			{"/fish", true},
			{"/fish.html", true},
			{"/fish/salmon.html", true},
			{"/fishheads", true},
			{"/fishheads/yummy.html", true},
			{"/fish.html?id=anything", true},
			{"/Fish.bar", false},
			{"/catfish", false},
			{"/?id=fish", false},
		}},
		{"/fish/", []row{
			{"/bar", false},
			{"/fish/", true},
			{"/fish/salmon", true},
			{"/fish/?salmon", true},
			{"/fish/salmon.html", true},
			{"/fish/?id=anything", true},
			{"/fish", false},
			{"/fish.html", false},
			{"/Fish/Salmon.html", false},
		}},
		{"/*.php", []row{
			{"/bar", false},
			{"/filename.php", true},
			{"/folder/filename.php", true},
			{"/folder/filename.php?parameters", true},
			{"//folder/any.php.file.html", true},
			{"/filename.php/", true},
			{"/index?f=filename.php/", true},
			{"/php/", false},
			{"/index?php", false},
			{"/windows.PHP", false},
		}},
		{"/*.php$", []row{
			{"/bar", false},
			{"/filename.php", true},
			{"/folder/filename.php", true},
			{"/filename.php?parameters", false},
			{"/filename.php/", false},
			{"/filename.php5", false},
			{"/php/", false},
			{"/filename?php", false},
			{"/aaaphpaaa", false},
			{"//windows.PHP", false},
		}},
		{"/fish*.php", []row{{"/bar", false}, {"/fish.php", true}, {"/fishheads/catfish.php?parameters", true}, {"/Fish.PHP", false}}},
	}
	for _, g := range groups {
		robots := "user-agent: FooBot\ndisallow: /\nallow: " + g.allow + "\n"
		var cases []googleCase
		for _, r := range g.rows {
			cases = append(cases, googleCase{robots, "FooBot", "http://foo.bar" + r.url, r.allowed, false})
		}
		runGoogleCases(t, "allow "+g.allow, cases)
	}
}

func TestGoogleSuiteLongLines(t *testing.T) {
	// Google cuts a line after 2083*8-1 bytes and matches what is left.
	const maxLine = 2083 * 8
	long := "/x/" + strings.Repeat("a", maxLine-len("/x/")-len("disallow: ")+1)
	robots := "user-agent: FooBot\ndisallow: " + long + "/qux\n"
	runGoogleCases(t, "long disallow", []googleCase{
		{robots, "FooBot", "http://foo.bar/fux", true, false},
		{robots, "FooBot", "http://foo.bar" + long + "/fux", false, false},
	})
	a := "/x/" + strings.Repeat("a", maxLine-len("/x/")-len("allow: ")+1)
	b := "/x/" + strings.Repeat("b", maxLine-len("/x/")-len("allow: ")+1)
	robots = "user-agent: FooBot\ndisallow: /\nallow: " + a + "/qux\nallow: " + b + "/qux\n"
	runGoogleCases(t, "long allow", []googleCase{
		{robots, "FooBot", "http://foo.bar/", false, false},
		{robots, "FooBot", "http://foo.bar" + a + "/qux", true, false},
		{robots, "FooBot", "http://foo.bar" + b + "/fux", true, false},
	})
}

func TestGoogleSuiteLineEndingsAndByteOrderMarks(t *testing.T) {
	// Every line ending counts one line; the deciding Disallow is line 6.
	files := map[string]string{
		"unix":       "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"dos":        "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
		"mac":        "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
		"no final":   "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
		"mixed":      "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
		"bom":        "\xEF\xBB\xBFUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"bom 2 of 3": "\xEF\xBBUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"bom 1 of 3": "\xEFUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
	}
	for name, body := range files {
		f := ParseBody(body)
		if f.Directives() != 4 || len(f.Problems()) != 0 {
			t.Errorf("%s: %d directives, problems %v", name, f.Directives(), f.Problems())
		}
		v := f.Allowed("bar", "/x")
		if v.Allowed || v.Line != 6 || v.Group != "bar" {
			t.Errorf("%s: bar /x = %+v", name, v)
		}
		if v := f.Allowed("foo", "/some/path"); !v.Allowed || v.Line != 2 {
			t.Errorf("%s: foo /some/path = %+v", name, v)
		}
	}
	// A broken mark makes the first line garbage, and a mark in the middle
	// of the file spoils its line.
	broken := ParseBody("\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n")
	if broken.Directives() != 1 || len(broken.Groups()) != 0 {
		t.Errorf("broken mark: %d directives, groups %v", broken.Directives(), broken.Groups())
	}
	middle := ParseBody("User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n")
	if middle.Directives() != 1 {
		t.Errorf("mark in the middle: %d directives", middle.Directives())
	}
}

func TestGoogleSuiteSitemapAnywhere(t *testing.T) {
	for _, body := range []string{
		"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nSitemap: http://foo.bar/sitemap.xml\n",
		"Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n",
	} {
		f := ParseBody(body)
		if got := f.Sitemaps(); len(got) != 1 || got[0] != "http://foo.bar/sitemap.xml" {
			t.Errorf("Sitemaps() = %v for\n%s", got, body)
		}
	}
}
