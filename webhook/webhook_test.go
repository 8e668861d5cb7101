package webhook

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// GeoScan's own vector, published in openapi.yaml and docs/WEBHOOKS.md; a
// change here breaks every receiver.
const (
	vectorSecret    = "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw=="
	vectorBody      = `{"event":"scan.test","scan_id":"test_0"}`
	vectorSignature = "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d"

	// The Standard Webhooks headers of the same body and secret, also
	// published in docs/WEBHOOKS.md.
	vectorID                = "2b4d1f0e-6c3a-4f8e-9a7b-5d2c1e0f9a8b"
	vectorTimestamp         = 1795152522
	vectorStandardSignature = "v1,LCh7Y/w7POhMuFTqWDGC58YBVopkzJ3QrKdVULNZDYw="
)

func TestSignMatchesPublishedVector(t *testing.T) {
	t.Parallel()
	require.Equal(t, vectorSignature, Sign(vectorSecret, []byte(vectorBody)))
	require.NoError(t, Verify(vectorSecret, []byte(vectorBody), vectorSignature))
}

// The known-answer vector of the Standard Webhooks specification: our
// scheme is theirs, so any of their libraries verifies GeoScan callbacks.
func TestStandardWebhooksSpecificationVector(t *testing.T) {
	t.Parallel()
	const (
		secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
		id     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
		ts     = 1614265330
		body   = `{"test": 2432232314}`
		want   = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	)
	got, err := SignStandard(secret, id, ts, []byte(body))
	require.NoError(t, err)
	require.Equal(t, want, got)
	at := time.Unix(ts, 0)
	require.NoError(t, VerifyStandard(secret, id, "1614265330", []byte(body), want, at, 0))
	// Libraries accept the key without its prefix too.
	require.NoError(t, VerifyStandard(strings.TrimPrefix(secret, SecretPrefix), id, "1614265330", []byte(body), want, at, 0))
}

func TestStandardMatchesPublishedVector(t *testing.T) {
	t.Parallel()
	got, err := SignStandard(vectorSecret, vectorID, vectorTimestamp, []byte(vectorBody))
	require.NoError(t, err)
	require.Equal(t, vectorStandardSignature, got)
}

func TestVerify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		secret    string
		body      string
		signature string
		want      error
	}{
		{"valid", vectorSecret, vectorBody, vectorSignature, nil},
		{"uppercase hex is the same MAC", vectorSecret, vectorBody, "v1=" + strings.ToUpper(vectorSignature[3:]), nil},
		{"tampered body", vectorSecret, vectorBody + " ", vectorSignature, ErrSignatureMismatch},
		{"one byte changed", vectorSecret, strings.Replace(vectorBody, "0", "1", 1), vectorSignature, ErrSignatureMismatch},
		{"wrong secret", vectorSecret + "x", vectorBody, vectorSignature, ErrSignatureMismatch},
		{"no prefix", vectorSecret, vectorBody, strings.TrimPrefix(vectorSignature, "v1="), ErrMalformedSignature},
		{"short hex", vectorSecret, vectorBody, vectorSignature[:20], ErrMalformedSignature},
		{"not hex", vectorSecret, vectorBody, "v1=" + strings.Repeat("z", 64), ErrMalformedSignature},
		{"secret without prefix", "dGVzdA==", vectorBody, vectorSignature, ErrMalformedSecret},
		{"empty secret body", "whsec_", vectorBody, vectorSignature, ErrMalformedSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Verify(tt.secret, []byte(tt.body), tt.signature)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func TestVerifyStandard(t *testing.T) {
	t.Parallel()
	at := time.Unix(vectorTimestamp, 0)
	ts := "1795152522"
	tests := []struct {
		name       string
		secret, id string
		ts, body   string
		sigs       string
		now        time.Time
		want       error
	}{
		{"valid", vectorSecret, vectorID, ts, vectorBody, vectorStandardSignature, at, nil},
		{"one valid among several", vectorSecret, vectorID, ts, vectorBody, "v1,Zm9v v1a,abc " + vectorStandardSignature, at, nil},
		{"tampered body", vectorSecret, vectorID, ts, vectorBody + " ", vectorStandardSignature, at, ErrSignatureMismatch},
		{"other id", vectorSecret, "other", ts, vectorBody, vectorStandardSignature, at, ErrSignatureMismatch},
		{"timestamp changed", vectorSecret, vectorID, "1795152523", vectorBody, vectorStandardSignature, at, ErrSignatureMismatch},
		{"too old", vectorSecret, vectorID, ts, vectorBody, vectorStandardSignature, at.Add(6 * time.Minute), ErrTimestamp},
		{"too new", vectorSecret, vectorID, ts, vectorBody, vectorStandardSignature, at.Add(-6 * time.Minute), ErrTimestamp},
		{"no v1 entry", vectorSecret, vectorID, ts, vectorBody, "v1a,abc", at, ErrMalformedSignature},
		{"bad timestamp", vectorSecret, vectorID, "soon", vectorBody, vectorStandardSignature, at, ErrMalformedSignature},
		{"secret not base64", "whsec_***", vectorID, ts, vectorBody, vectorStandardSignature, at, ErrMalformedSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := VerifyStandard(tt.secret, tt.id, tt.ts, []byte(tt.body), tt.sigs, tt.now, 0)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
		})
	}
}

// TestReceiverGuide keeps docs/WEBHOOKS.md honest: it publishes the vectors
// above, and its Node.js and Python snippets verify them.
func TestReceiverGuide(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "WEBHOOKS.md"))
	require.NoError(t, err)
	text := string(doc)
	for _, v := range []string{vectorSecret, vectorBody, vectorSignature, vectorID, strconv.Itoa(vectorTimestamp), vectorStandardSignature} {
		require.Contains(t, text, "`"+v+"`")
	}

	check := func(lang, tool, harness string) {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			bin, err := exec.LookPath(tool)
			if err != nil {
				t.Skipf("%s is not installed", tool)
			}
			snippet := codeBlock(t, text, lang)
			file := filepath.Join(t.TempDir(), "check")
			require.NoError(t, os.WriteFile(file, []byte(snippet+"\n"+harness), 0o600))
			out, err := exec.CommandContext(context.Background(), bin, file).CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.Equal(t, "ok", strings.TrimSpace(string(out)))
		})
	}
	check("js", "node", `
const body = Buffer.from(`+"`"+vectorBody+"`"+`);
const good = verifyGeoScan("`+vectorSecret+`", body, "`+vectorSignature+`");
const tampered = verifyGeoScan("`+vectorSecret+`", Buffer.concat([body, Buffer.from(" ")]), "`+vectorSignature+`");
const wrongKey = verifyGeoScan("`+vectorSecret+`x", body, "`+vectorSignature+`");
console.log(good && !tampered && !wrongKey ? "ok" : "bad");
`)
	check("python", "python3", `
body = b'`+vectorBody+`'
good = verify_geoscan("`+vectorSecret+`", body, "`+vectorSignature+`")
tampered = verify_geoscan("`+vectorSecret+`", body + b" ", "`+vectorSignature+`")
wrong_key = verify_geoscan("`+vectorSecret+`x", body, "`+vectorSignature+`")
print("ok" if good and not tampered and not wrong_key else "bad")
`)
}

// codeBlock returns the first fenced block of the guide in lang.
func codeBlock(t *testing.T, text, lang string) string {
	t.Helper()
	start := strings.Index(text, "```"+lang+"\n")
	require.GreaterOrEqual(t, start, 0, "no %s block", lang)
	rest := text[start+len("```"+lang+"\n"):]
	end := strings.Index(rest, "```")
	require.GreaterOrEqual(t, end, 0)
	return rest[:end]
}
