package testsite

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// The hostile fixtures exist to prove the fetcher's bounds hold: a server
// that never finishes, a page far larger than any size cap, a compressed
// body that inflates to a gigabyte, and a redirect into the cloud metadata
// service. None of them has anything worth auditing.

// dripInterval is how long the slow drip waits between bytes.
const dripInterval = 2 * time.Second

func newSlowDrip(e *env) *fixture {
	const page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Slow Drip</title></head><body><h1>Loading</h1><p>"
	const robots = "User-agent: *\nAllow: /\n"
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			drip(w, r, e.done, "text/html; charset=utf-8", page, -1)
		case "/robots.txt":
			drip(w, r, e.done, "text/plain; charset=utf-8", robots, -1)
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: SlowDrip, host: hosts[SlowDrip], serve: serve}
}

// drip sends the headers at once and then the body one byte at a time:
// size bytes, or (size < 0) text padded with spaces for as long as the
// client listens or the server runs. A real tarpit looks like this: the
// connection is alive, so only a deadline or a minimum transfer rate of the
// client's own stops it.
func drip(w http.ResponseWriter, r *http.Request, done <-chan struct{}, ctype, text string, size int) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if rc.Flush() != nil || r.Method == http.MethodHead {
		return
	}
	for i := 0; size < 0 || i < size; i++ {
		if !sleep(r.Context(), done, dripInterval) {
			return
		}
		b := byte(' ')
		if i < len(text) {
			b = text[i]
		}
		if _, err := w.Write([]byte{b}); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// hugeSize is the size of the huge fixture's homepage.
const hugeSize = 50 << 20

// hugeChunk is one block of the huge page's filler, built once: a run of
// ordinary paragraphs, so the body looks like a page that is merely far
// too long rather than obvious garbage.
var hugeChunk = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 64<<10; i++ {
		b.WriteString("<p>Paragraph " + strconv.Itoa(i) + ": this archive page lists every entry ever published, without pagination, in a single document that keeps going.</p>\n")
	}
	return b.Bytes()
})

func newHuge(e *env) *fixture {
	const head = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>The Complete Archive</title><meta name=\"description\" content=\"Every entry on one page.\"></head><body><main><h1>The complete archive</h1>\n"
	const tail = "</main></body></html>\n"
	serve := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		// No Content-Length: the body is streamed, so a client cannot
		// refuse it up front and has to enforce its own cap while reading.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return
		}
		chunk := hugeChunk()
		if _, err := w.Write([]byte(head)); err != nil {
			return
		}
		for left := hugeSize - len(head) - len(tail); left > 0; {
			select {
			case <-r.Context().Done():
				return
			case <-e.done:
				return
			default:
			}
			n := min(left, len(chunk))
			if _, err := w.Write(chunk[:n]); err != nil {
				return
			}
			left -= n
		}
		_, _ = w.Write([]byte(tail))
	}
	return &fixture{name: Huge, host: hosts[Huge], serve: serve}
}

// bombSize is the least number of spaces the gzip bomb inflates to.
const bombSize = 1 << 30

// bomb caches the compressed gzip bomb for the whole process. A mutex
// rather than sync.Once so that a build abandoned because the server
// closed is simply retried by the next request.
var bomb struct {
	mu   sync.Mutex
	data []byte
}

// gzipBomb returns the compressed body, building it on first use; it
// returns nil if done closes during the build.
func gzipBomb(done <-chan struct{}) []byte {
	bomb.mu.Lock()
	defer bomb.mu.Unlock()
	if bomb.data == nil {
		bomb.data = buildGzipBomb(done)
	}
	return bomb.data
}

// buildGzipBomb writes the deflate stream by hand instead of compressing a
// gigabyte: compress/flate needs about two seconds for that, and well over
// twenty under the race detector. The stream is what a good compressor
// would produce for a long run of spaces, in three blocks:
//
//  1. a stored block with the start of the page, ending in a space;
//  2. a dynamic-Huffman block whose literal/length code holds only
//     end-of-block and "copy 258 bytes" (one bit each) and whose distance
//     code makes distance 1 a single bit, so every two bits repeat the
//     previous 258 spaces, about 1,000:1;
//  3. a final stored block with the end of the page.
//
// The result is about 1 MiB and inflates to just over 1 GiB of HTML with a
// valid CRC-32 and length trailer.
func buildGzipBomb(done <-chan struct{}) []byte {
	const (
		head = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Welcome</title></head><body> "
		tail = "<p>Welcome.</p></body></html>\n"
	)
	copies := (bombSize + 257) / 258
	w := &bitWriter{out: []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff}} // gzip header: deflate, no name, no mtime
	w.stored([]byte(head), false)

	// Block header: not final, dynamic Huffman, 286 literal/length codes,
	// 2 distance codes, 18 code-length codes.
	w.bits(0, 1)
	w.bits(2, 2)
	w.bits(286-257, 5)
	w.bits(2-1, 5)
	w.bits(18-4, 4)
	// Code-length code: only symbols 1 ("length 1") and 18 ("run of
	// zeros") are used, each one bit long; lengths go in RFC 1951 order.
	for _, sym := range []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1} {
		if sym == 1 || sym == 18 {
			w.bits(1, 3)
		} else {
			w.bits(0, 3)
		}
	}
	// Canonical codes: symbol 1 is 0, symbol 18 is 1. Literal/length
	// lengths: 256 zeros, 1 for end-of-block (256), 28 zeros, 1 for
	// length 258 (285); then distance codes 0 and 1 both of length 1.
	zeros := func(n uint64) { w.bits(1, 1); w.bits(n-11, 7) }
	zeros(138)
	zeros(118)
	w.bits(0, 1)
	zeros(28)
	w.bits(0, 1)
	w.bits(0, 1)
	w.bits(0, 1)
	// Each copy is code 1 (length 258) then code 0 (distance 1). Four
	// copies fill a byte, and once the pattern is running every byte is
	// the same, so the bulk is appended rather than written bit by bit.
	repeat := func() { w.bits(1, 1); w.bits(0, 1) }
	written := 0
	for ; written < 16; written++ {
		repeat()
	}
	pattern := w.out[len(w.out)-1]
	bulk := (copies - written - 16) / 4
	w.out = append(w.out, bytes.Repeat([]byte{pattern}, bulk)...)
	for written += 4 * bulk; written < copies; written++ {
		repeat()
	}
	w.bits(0, 1) // end of block
	w.stored([]byte(tail), true)

	// Trailer: CRC-32 and length of everything the stream inflates to.
	spaces := bytes.Repeat([]byte{' '}, 1<<20)
	crc := crc32.ChecksumIEEE([]byte(head))
	for left := copies * 258; left > 0; left -= len(spaces) {
		select {
		case <-done:
			return nil
		default:
		}
		crc = crc32.Update(crc, crc32.IEEETable, spaces[:min(left, len(spaces))])
	}
	crc = crc32.Update(crc, crc32.IEEETable, []byte(tail))
	size := uint32(len(head) + copies*258 + len(tail)) // ISIZE is the length modulo 2^32
	w.out = binary.LittleEndian.AppendUint32(w.out, crc)
	w.out = binary.LittleEndian.AppendUint32(w.out, size)
	return w.out
}

// bitWriter packs deflate bits least-significant first.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n -= 8
	}
}

// stored writes a stored (uncompressed) block of at most 65535 bytes.
func (w *bitWriter) stored(data []byte, final bool) {
	if final {
		w.bits(1, 1)
	} else {
		w.bits(0, 1)
	}
	w.bits(0, 2)
	if w.n > 0 {
		w.bits(0, 8-w.n)
	}
	w.out = binary.LittleEndian.AppendUint16(w.out, uint16(len(data)))
	w.out = binary.LittleEndian.AppendUint16(w.out, ^uint16(len(data)))
	w.out = append(w.out, data...)
}

func newGzipBomb(e *env) *fixture {
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
		case "/":
			body := gzipBomb(e.done)
			if body == nil {
				http.Error(w, "shutting down", http.StatusServiceUnavailable)
				return
			}
			// Sent compressed whatever the client asked for, as a
			// hostile server would.
			h := w.Header()
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusOK)
			if r.Method != http.MethodHead {
				_, _ = w.Write(body)
			}
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: GzipBomb, host: hosts[GzipBomb], serve: serve}
}

// MetadataTarget is where the metadata-redirect fixture sends every
// request: the link-local address of the cloud instance metadata service,
// which an SSRF-safe fetcher must never connect to.
const MetadataTarget = "https://169.254.169.254/latest/meta-data/"

func newMetadataRedirect(_ *env) *fixture {
	serve := func(w http.ResponseWriter, r *http.Request) {
		redirect(w, MetadataTarget, http.StatusFound)
	}
	return &fixture{name: MetadataRedirect, host: hosts[MetadataRedirect], serve: serve, plain: serve}
}
