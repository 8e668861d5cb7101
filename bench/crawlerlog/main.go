// Command crawlerlog measures the crawler-log analysis against the floor
// of reading a log at all. bench/crawlerlog.sh runs it:
//
//	crawlerlog generate -out FILE -size BYTES   write a realistic mixed log
//	crawlerlog scan FILE                        count lines with bufio.Scanner
//	crawlerlog analyze FILE                     crawlerlog.Analyze the file
//
// scan and analyze print one line: lines, seconds, lines/s, CPU seconds
// and the process's peak resident memory (VmHWM), so each runs in its own
// process.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "crawlerlog:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: crawlerlog generate|scan|analyze …")
	}
	switch args[0] {
	case "generate":
		fs := flag.NewFlagSet("generate", flag.ContinueOnError)
		out := fs.String("out", "", "file to write")
		size := fs.Int64("size", 1<<30, "bytes to write (about)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return generate(*out, *size)
	case "scan", "analyze":
		if len(args) != 2 {
			return fmt.Errorf("usage: crawlerlog %s FILE", args[0])
		}
		return measure(args[0], args[1])
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func measure(mode, path string) error {
	f, err := os.Open(path) //nolint:gosec // the log the script generated
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	start := time.Now()
	var lines int64
	if mode == "scan" {
		s := bufio.NewScanner(f)
		for s.Scan() {
			lines++
		}
		if err := s.Err(); err != nil {
			return err
		}
	} else {
		res, err := crawlerlog.Analyze(context.Background(), f, crawlerlog.Options{Domain: "www.example.com"})
		if err != nil {
			return err
		}
		lines = res.Lines
		fmt.Fprintf(os.Stderr, "parsed %d, unparsed %d, formats %v, bots %d, other hits %d, other host %d\n",
			res.ParsedLines, res.UnparsedLines, res.Formats, len(res.Bots), res.OtherHits, res.OtherHostLines)
	}
	secs := time.Since(start).Seconds()
	fmt.Printf("%s lines=%d seconds=%.3f lines_per_s=%.0f cpu_seconds=%.3f peak_rss_mib=%.1f\n",
		mode, lines, secs, float64(lines)/secs, cpuSeconds(), float64(peakRSS())/(1<<20))
	return nil
}

// cpuSeconds is the process's user and system time so far: on a shared
// machine the wall time depends on what else runs, the CPU time less so.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// peakRSS reads VmHWM, the process's peak resident memory, in bytes.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// The generated traffic: mostly browsers, some verified crawlers (from
// addresses of the embedded lists), some forged ones and other bots,
// written in segments of the formats a site's logs come in.
var (
	browsers = []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.6533.103 Mobile Safari/537.36",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:129.0) Gecko/20100101 Firefox/129.0",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
	}
	otherBots = []string{
		"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
		"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
		"curl/8.5.0",
		"python-requests/2.32.3",
	}
	crawlers = []struct {
		ua, net  string
		first, n int
	}{
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.6613.137 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "66.249.66.", 1, 30},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "157.55.39.", 1, 250},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "20.171.207.", 1, 250},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", "74.7.228.", 1, 250},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "216.73.216.", 1, 250},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "18.97.9.", 96, 8},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot", "23.98.142.", 176, 16},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "17.22.237.", 1, 250},
	}
)

type gen struct {
	r     *rand.Rand
	w     *bufio.Writer
	t     time.Time
	paths []string
	zipf  *rand.Zipf
}

func generate(out string, size int64) error {
	if out == "" {
		return errors.New("-out is required")
	}
	f, err := os.Create(out) //nolint:gosec // where the script asks for the log
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // a fixed seed, so every run reads the same log
	g := &gen{r: r, w: bufio.NewWriterSize(f, 1<<20), t: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	g.zipf = rand.NewZipf(r, 1.1, 2, 19999)
	for i := range 20000 {
		g.paths = append(g.paths, fmt.Sprintf("/%s/%s-%d", []string{"blog", "docs", "product", "category", "help"}[i%5], []string{"getting-started", "pricing", "how-to-choose", "faq", "release-notes", "comparison"}[i%6], i))
	}
	// Segments of formats, weighted by lines: how a site's logs look when
	// several sources (origin server, CDN, edge platform) are uploaded
	// together.
	formats := []struct {
		name   string
		weight int
	}{{"combined", 45}, {"vhost", 10}, {"common", 5}, {"cloudfront", 10}, {"cloudflare", 15}, {"fastly", 5}, {"vercel", 5}, {"cfrt", 5}}
	var written int64
	for written < size {
		n := r.IntN(100)
		name := ""
		for _, fm := range formats {
			if n < fm.weight {
				name = fm.name
				break
			}
			n -= fm.weight
		}
		if name == "cloudfront" {
			fmt.Fprint(g.w, "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version\n")
		}
		for range 10000 {
			written += int64(g.line(name))
		}
	}
	if err := g.w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func (g *gen) line(format string) int {
	g.t = g.t.Add(time.Duration(g.r.IntN(400)) * time.Millisecond)
	ip := fmt.Sprintf("%d.%d.%d.%d", 1+g.r.IntN(200), g.r.IntN(256), g.r.IntN(256), 1+g.r.IntN(254))
	ua := browsers[g.r.IntN(len(browsers))]
	status := 200
	switch p := g.r.IntN(1000); {
	case p < 50: // a crawler from its operator's addresses
		c := crawlers[g.r.IntN(len(crawlers))]
		ua, ip = c.ua, c.net+strconv.Itoa(c.first+g.r.IntN(c.n))
		if g.r.IntN(10) == 0 {
			status = 403
		}
	case p < 60: // a forged crawler
		ua = crawlers[g.r.IntN(len(crawlers))].ua
	case p < 80:
		ua = otherBots[g.r.IntN(len(otherBots))]
	}
	if status == 200 {
		switch p := g.r.IntN(100); {
		case p < 8:
			status = 304
		case p < 12:
			status = 404
		}
	}
	host := "www.example.com"
	if g.r.IntN(100) < 3 {
		host = "static.example.net"
	}
	path := g.paths[g.zipf.Uint64()]
	if g.r.IntN(5) == 0 {
		path += "?utm_source=newsletter&id=" + strconv.Itoa(g.r.IntN(1e6))
	}
	size := 2000 + g.r.IntN(60000)
	clf := g.t.Format("02/Jan/2006:15:04:05 -0700")
	var s string
	switch format {
	case "combined":
		s = fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" %d %d \"https://www.google.com/\" \"%s\" %.3f\n", ip, clf, path, status, size, ua, g.r.Float64())
	case "vhost":
		s = fmt.Sprintf("%s:443 %s - - [%s] \"GET %s HTTP/2.0\" %d %d \"-\" \"%s\"\n", host, ip, clf, path, status, size, ua)
	case "common":
		s = fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" %d %d\n", ip, clf, path, status, size)
	case "cloudfront":
		enc := strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", ";", "%3B", ",", "%2C").Replace(ua)
		p, q, _ := strings.Cut(path, "?")
		if q == "" {
			q = "-"
		}
		s = fmt.Sprintf("%s\t%s\tFRA56-P1\t%d\t%s\tGET\td111111abcdef8.cloudfront.net\t%s\t%d\t-\t%s\t%s\t-\tHit\tSOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==\t%s\thttps\t150\t0.002\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\n",
			g.t.Format("2006-01-02"), g.t.Format("15:04:05"), size, ip, p, status, enc, q, host)
	case "cloudflare":
		s = fmt.Sprintf(`{"ClientIP":%q,"ClientRequestHost":%q,"ClientRequestMethod":"GET","ClientRequestURI":%q,"ClientRequestUserAgent":%q,"EdgeResponseStatus":%d,"EdgeStartTimestamp":%d,"EdgeResponseBytes":%d,"CacheCacheStatus":"hit","ClientCountry":"de","RayID":"%016x"}`+"\n",
			ip, host, path, ua, status, g.t.UnixNano(), size, g.r.Uint64())
	case "fastly":
		s = fmt.Sprintf(`{"timestamp":%q,"client_ip":%q,"geo_country":"germany","host":%q,"url":%q,"request_method":"GET","request_user_agent":%q,"response_status":%d,"response_body_size":%d,"cache_status":"HIT"}`+"\n",
			g.t.Format(time.RFC3339), ip, host, path, ua, status, size)
	case "vercel":
		s = fmt.Sprintf(`{"id":"1573817187330377061717300000","deploymentId":"dpl_233NRGRjVZX1caZrXWtz5g1TAksD","source":"edge","host":"my-app-abc123.vercel.app","timestamp":%d,"projectId":"gdufoJxB6b9b1fEqr1jUtFkyavUU","level":"info","proxy":{"timestamp":%d,"method":"GET","host":%q,"path":%q,"userAgent":[%q],"region":"fra1","referer":"https://www.google.com/","statusCode":%d,"clientIp":%q,"scheme":"https","vercelCache":"HIT"}}`+"\n",
			g.t.UnixMilli(), g.t.UnixMilli(), host, path, ua, status, ip)
	case "cfrt":
		enc := strings.ReplaceAll(ua, " ", "%20")
		p, _, _ := strings.Cut(path, "?")
		s = fmt.Sprintf(`{"timestamp":"%d.%03d","c-ip":%q,"sc-status":"%d","cs-method":"GET","cs-host":"d111111abcdef8.cloudfront.net","cs-uri-stem":%q,"x-edge-location":"FRA56-P1","x-host-header":%q,"cs-user-agent":%q,"time-taken":"0.002"}`+"\n",
			g.t.Unix(), g.t.Nanosecond()/1e6, ip, status, p, host, enc)
	}
	n, _ := io.WriteString(g.w, s)
	return n
}
