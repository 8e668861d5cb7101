package httpserver

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/i18n"
)

// sharePrefix starts the paths of the share links' pages, which people
// open in a browser: what they are refused is a page, not the envelope.
const sharePrefix = "/r/"

func isSharePage(path string) bool { return strings.HasPrefix(path, sharePrefix) }

// writeLimitedPage answers a share link's refused request with the page
// saying so, in the language the browser asks for, under the headers of
// every share page. The Retry-After and X-RateLimit-* headers already set
// stay.
func writeLimitedPage(c echo.Context) error {
	report.HTMLHeaders(c.Response().Header())
	if c.Request().Method == http.MethodHead {
		c.Response().WriteHeader(http.StatusTooManyRequests)
		return nil
	}
	var page bytes.Buffer
	if err := report.WriteHTMLLimited(&page, acceptedLanguage(c.Request().Header.Get("Accept-Language"))); err != nil {
		return err
	}
	c.Response().WriteHeader(http.StatusTooManyRequests)
	_, err := c.Response().Write(page.Bytes())
	return err
}

// pageLanguages are the catalogues' languages, English first, for the
// matcher; built once.
var pageLanguages = func() []language.Tag {
	tags := make([]language.Tag, len(i18n.Supported))
	for i, l := range i18n.Supported {
		tags[i] = language.MustParse(l)
	}
	return tags
}()

var pageMatcher = language.NewMatcher(pageLanguages)

// acceptedLanguage is the supported language an Accept-Language header
// prefers, English when it names none of them or cannot be read.
func acceptedLanguage(header string) string {
	if header == "" {
		return i18n.English
	}
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return i18n.English
	}
	_, i, conf := pageMatcher.Match(tags...)
	if conf == language.No {
		return i18n.English
	}
	return i18n.Supported[i]
}
