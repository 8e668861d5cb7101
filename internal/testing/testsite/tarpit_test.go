package testsite_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestTarpitFixtures checks the tarpits' shapes without waiting them out:
// the body tarpit announces a tiny page and sends its first byte late, the
// header tarpit never completes its headers, and the slow-pages site
// serves its homepage at once while its robots.txt drips.
func TestTarpitFixtures(t *testing.T) {
	s := start(t)
	c := client(s)

	resp, err := c.Get(s.URL(testsite.TarpitBody))
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != int64(len("Welcome")) || resp.StatusCode != http.StatusOK {
		t.Errorf("body tarpit: status %d, length %d", resp.StatusCode, resp.ContentLength)
	}
	first := make([]byte, 1)
	if _, err := io.ReadFull(resp.Body, first); err != nil || first[0] != 'W' {
		t.Errorf("body tarpit: first byte %q, err %v", first, err)
	}
	_ = resp.Body.Close()

	// An HTTP/1.1 client (the host refuses HTTP/2) that waits a while for
	// headers gets none.
	h1 := client(s)
	tr := h1.Transport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = 2500 * time.Millisecond
	h1.Transport = tr
	_, err = h1.Get(s.URL(testsite.TarpitHeaders))
	var ne interface{ Timeout() bool }
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("header tarpit: %v, want a header timeout", err)
	}

	home := get(t, c, s.URL(testsite.SlowPages), browserUA)
	if home.status != http.StatusOK || !strings.Contains(home.body, "<title>Sluggish Joinery") {
		t.Errorf("slow pages homepage: %d %.80q", home.status, home.body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL(testsite.SlowPages)+"robots.txt", nil)
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err == nil || len(b) > 2 {
		t.Errorf("slow robots.txt: %d bytes within 3 s, err %v; want a drip cut by the deadline", len(b), err)
	}
}

// TestNulBytesFixture: the raw bytes reach the client unchanged over
// HTTP/1.1, and the about page's NUL header is refused by Go's client.
func TestNulBytesFixture(t *testing.T) {
	s := start(t)
	c := client(s)
	resp, err := c.Get(s.URL(testsite.NulBytes))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.ProtoMajor != 1 {
		t.Errorf("protocol %s, want HTTP/1.1", resp.Proto)
	}
	for _, want := range []string{"<title>Nul\x00 Bakery \xff\xfe", `"name":"Nul\u0000 Bakery"`, "<h1>Nul\x00 Bakery</h1>"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("homepage lacks %q", want)
		}
	}
	if got := resp.Header.Get("Server"); got != "nulhttpd/1.0 \xff\xfe" {
		t.Errorf("Server header %q", got)
	}
	robots := get(t, c, s.URL(testsite.NulBytes)+"robots.txt", browserUA)
	if !strings.Contains(robots.body, "User-agent: *\x00\n") {
		t.Errorf("robots.txt %q", robots.body)
	}
	if _, err := c.Get(s.URL(testsite.NulBytes) + "about"); err == nil || !strings.Contains(err.Error(), "malformed MIME header") {
		t.Errorf("about page: %v, want a malformed header error", err)
	}
}
