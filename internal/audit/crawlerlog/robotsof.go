package crawlerlog

import (
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// RobotsOf is what CrossCheck needs of the robots.txt an audit fetched:
// its text and whether its rules are known, by RFC 9309's reading of the
// fetch (robots.Parse): rules when fetched, none at all when unavailable
// (everything may be crawled), unknown when unreachable.
func RobotsOf(resp *fetch.Response) (text string, known bool) {
	switch robots.Parse(resp).State() {
	case robots.Rules:
		return string(resp.Body), true
	case robots.Unavailable:
		return "", true
	}
	return "", false
}
