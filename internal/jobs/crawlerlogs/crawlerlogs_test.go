package crawlerlogs_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	testsite.RemoveTempCAFiles()
	os.Exit(code)
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

func TestDecompress(t *testing.T) {
	t.Parallel()
	read := func(in []byte, limit int64) (string, error) {
		r, err := crawlerlogs.Decompress(bytes.NewReader(in), limit)
		if err != nil {
			return "", err
		}
		b, err := io.ReadAll(r)
		return string(b), err
	}
	got, err := read([]byte("plain line\n"), 100)
	require.NoError(t, err)
	require.Equal(t, "plain line\n", got)

	got, err = read(gz(t, "zipped line\n"), 100)
	require.NoError(t, err)
	require.Equal(t, "zipped line\n", got, "gzip is known by its magic bytes")

	_, err = read(gz(t, strings.Repeat("x", 1000)), 100)
	require.Error(t, err, "a gzip that expands past the limit stops there")

	z := gz(t, strings.Repeat("line\n", 1000))
	_, err = read(z[:len(z)/2], 1<<20)
	require.Error(t, err, "a gzip stream cut half way is an error, not a short log")

	_, err = read([]byte{0x1f, 0x8b, 0xff, 0x00}, 100)
	require.Error(t, err, "a broken gzip header")

	got, err = read(nil, 100)
	require.NoError(t, err)
	require.Empty(t, got)
}

// edgeLog is a log of the edge fixture: OpenAI's search crawler, from an
// address OpenAI publishes, refused on a page robots.txt allows it.
const edgeLog = `4.227.36.10 - - [20/Nov/2026:10:00:00 +0000] "GET /claims HTTP/1.1" 403 512 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"
198.51.100.7 - - [20/Nov/2026:10:01:00 +0000] "GET / HTTP/1.1" 200 9000 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"
`

func work(t *testing.T, w *crawlerlogs.Worker, id uuid.UUID, attempt int) error {
	t.Helper()
	return w.Work(context.Background(), &river.Job[crawlerlogs.Args]{JobRow: &rivertype.JobRow{Attempt: attempt}, Args: crawlerlogs.Args{LogID: id}})
}

// TestWorkerCrossChecksWithTheLatestAudit runs the job on stored uploads:
// the analysis is stored and the upload deleted; the cross-check is made
// with the organization's latest completed scan of the site, from the
// robots.txt its snapshot kept; a broken gzip fails with a reason and is
// not retried; a log deleted while queued is no work.
func TestWorkerCrossChecksWithTheLatestAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "logs", "pro", true)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
		require.NoError(t, err)
	})
	site := audittest.Site(t, testsite.Edge)
	host := audittest.URL(t, testsite.Edge).Hostname()
	uploadAs := func(domain string, body []byte) uuid.UUID {
		var lg store.CrawlerLog
		require.NoError(t, st.InTx(ctx, func(tx *store.Store) error {
			var err error
			lg, err = tx.CreateCrawlerLog(ctx, store.NewCrawlerLog{OrgID: org.ID, Domain: domain}, bytes.NewReader(body), 1<<30)
			return err
		}))
		return lg.ID
	}
	upload := func(body []byte) uuid.UUID { return uploadAs(host, body) }
	w := &crawlerlogs.Worker{Store: st}

	// Before any audit of the site: analysed, cross-check not measured.
	first := upload([]byte(edgeLog))
	require.NoError(t, work(t, w, first, 1))
	lg, err := st.GetCrawlerLog(ctx, org.ID, first)
	require.NoError(t, err)
	require.Equal(t, store.CrawlerLogSucceeded, lg.Status)
	var cc crawlerlogs.CrossCheck
	require.NoError(t, json.Unmarshal(lg.CrossCheck, &cc))
	require.Equal(t, crawlerlogs.NotMeasured, cc.Status)
	require.Contains(t, cc.Reason, host)

	// A completed audit of the site with its snapshot.
	scan, err := st.CreateScan(ctx, store.NewScan{OrgID: org.ID, Source: store.SourceAPI, URL: "https://" + host + "/", Domain: host, BrandName: "Fortress"}, time.Now())
	require.NoError(t, err)
	snap, err := fetch.Snapshot(site)
	require.NoError(t, err)
	require.NoError(t, st.PutSnapshot(ctx, scan.ID, fetch.SnapshotFormat, snap))
	_, err = pool.Exec(ctx, `UPDATE scans SET status = 'completed', completed_at = now() WHERE id = $1`, scan.ID)
	require.NoError(t, err)

	second := upload(gz(t, edgeLog))
	require.NoError(t, work(t, w, second, 1))
	lg, err = st.GetCrawlerLog(ctx, org.ID, second)
	require.NoError(t, err)
	require.Equal(t, store.CrawlerLogSucceeded, lg.Status)
	var res crawlerlog.Result
	require.NoError(t, json.Unmarshal(lg.Result, &res))
	require.EqualValues(t, 2, res.Lines)
	require.Len(t, res.Bots, 1)
	require.EqualValues(t, 1, res.Bots[0].VerifiedHits)
	cc = crawlerlogs.CrossCheck{}
	require.NoError(t, json.Unmarshal(lg.CrossCheck, &cc))
	require.Equal(t, crawlerlogs.Measured, cc.Status, "reason: %s", cc.Reason)
	require.Equal(t, scan.ID, *cc.ScanID)
	require.Len(t, cc.Result.RefusedButAllowed.Pages, 1)
	require.Equal(t, "/claims", cc.Result.RefusedButAllowed.Pages[0].Path)
	var chunks int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM crawler_log_chunks WHERE log_id = $1`, second).Scan(&chunks))
	require.Zero(t, chunks, "the upload is deleted once analysed")

	// The same site filed under its www. name is set beside the same scan.
	www := uploadAs("www."+host, []byte(edgeLog))
	require.NoError(t, work(t, w, www, 1))
	cc = crawlerlogs.CrossCheck{}
	require.NoError(t, json.Unmarshal(mustLog(t, st, org.ID, www).CrossCheck, &cc))
	require.Equal(t, crawlerlogs.Measured, cc.Status, "reason: %s", cc.Reason)
	require.Equal(t, scan.ID, *cc.ScanID)

	// The snapshot gone (retention): not measured, and says why.
	_, err = pool.Exec(ctx, `DELETE FROM scan_snapshots WHERE scan_id = $1`, scan.ID)
	require.NoError(t, err)
	third := upload([]byte(edgeLog))
	require.NoError(t, work(t, w, third, 1))
	lg, err = st.GetCrawlerLog(ctx, org.ID, third)
	require.NoError(t, err)
	cc = crawlerlogs.CrossCheck{}
	require.NoError(t, json.Unmarshal(lg.CrossCheck, &cc))
	require.Equal(t, crawlerlogs.NotMeasured, cc.Status)
	require.Contains(t, cc.Reason, "no longer kept")

	// A gzip cut half way fails at once, with the reason, upload deleted.
	z := gz(t, strings.Repeat(edgeLog, 200))
	broken := upload(z[:len(z)/2])
	require.NoError(t, work(t, w, broken, 1), "a failure of the upload is recorded, not retried")
	lg, err = st.GetCrawlerLog(ctx, org.ID, broken)
	require.NoError(t, err)
	require.Equal(t, store.CrawlerLogFailed, lg.Status)
	require.Equal(t, crawlerlogs.CodeUnreadable, lg.ErrorCode)
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM crawler_log_chunks WHERE log_id = $1`, broken).Scan(&chunks))
	require.Zero(t, chunks)

	// Another compression: unreadable, said so.
	zstd := upload(append([]byte{0x28, 0xb5, 0x2f, 0xfd}, bytes.Repeat([]byte{0}, 64)...))
	require.NoError(t, work(t, w, zstd, 1))
	lg, err = st.GetCrawlerLog(ctx, org.ID, zstd)
	require.NoError(t, err)
	require.Equal(t, crawlerlogs.CodeUnreadable, lg.ErrorCode)
	require.Contains(t, lg.ErrorMessage, "zstd")

	// Past the uncompressed limit: too_large.
	big := upload(gz(t, strings.Repeat(edgeLog, 50)))
	require.NoError(t, work(t, &crawlerlogs.Worker{Store: st, MaxUncompressedBytes: 1000}, big, 1))
	lg, err = st.GetCrawlerLog(ctx, org.ID, big)
	require.NoError(t, err)
	require.Equal(t, crawlerlogs.CodeTooLarge, lg.ErrorCode, "message: %s", lg.ErrorMessage)

	// Deleted while queued: nothing to do, no error.
	gone := upload([]byte(edgeLog))
	require.NoError(t, st.DeleteCrawlerLog(ctx, org.ID, gone))
	require.NoError(t, work(t, w, gone, 1))

	// A finished log is not analysed again by a late retry.
	before := mustLog(t, st, org.ID, second)
	require.NoError(t, work(t, w, second, 2))
	after := mustLog(t, st, org.ID, second)
	require.Equal(t, store.CrawlerLogSucceeded, after.Status)
	require.True(t, before.CompletedAt.Equal(*after.CompletedAt), "completed once")
}

func mustLog(t *testing.T, st *store.Store, org, id uuid.UUID) store.CrawlerLog {
	t.Helper()
	lg, err := st.GetCrawlerLog(context.Background(), org, id)
	require.NoError(t, err)
	return lg
}
