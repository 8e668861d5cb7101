package crawlerlog

import (
	"bytes"
	"errors"
	"io"
)

// lineReader splits a stream into lines ended by LF, CRLF or a bare CR (or
// by the end of the stream), without copying them: a line is valid until
// the next call. A line longer than max is never held whole: its bytes are
// discarded as they arrive and next reports it as too long.
//
// bufio.Scanner does not fit: it fails the whole stream on a long line and
// knows one terminator.
type lineReader struct {
	r     io.Reader
	buf   []byte
	start int // first unread byte of buf
	end   int // end of the data in buf
	// nl and cr cache the positions of the next LF and CR at or after
	// start (-1: none in buf[start:end], -2: not searched yet): a file of
	// LF lines is searched for CRs once per read, not once per line, and a
	// file of bare-CR lines for LFs likewise.
	nl, cr int
	max    int
	eof    bool
	err    error
}

const minReadBuffer = 256 << 10

func newLineReader(r io.Reader, max int) *lineReader {
	// Room for a line of max bytes and its CRLF: a CR ending a full buffer
	// would otherwise be taken for part of a longer line.
	size := max + 2
	if size < minReadBuffer {
		size = minReadBuffer
	}
	return &lineReader{r: r, buf: make([]byte, size), max: max, nl: -2, cr: -2}
}

// peek returns up to n bytes at the start of the stream, without
// consuming them.
func (lr *lineReader) peek(n int) []byte {
	for lr.end-lr.start < n && !lr.eof {
		lr.fill()
	}
	return lr.buf[lr.start:min(lr.end, lr.start+n)]
}

// fill compacts the buffer and reads more into it.
func (lr *lineReader) fill() {
	if lr.start > 0 {
		copy(lr.buf, lr.buf[lr.start:lr.end])
		lr.end -= lr.start
		if lr.nl >= 0 {
			lr.nl -= lr.start
		}
		if lr.cr >= 0 {
			lr.cr -= lr.start
		}
		lr.start = 0
	}
	// The data already held has none; the new data may.
	if lr.nl == -1 {
		lr.nl = -2
	}
	if lr.cr == -1 {
		lr.cr = -2
	}
	for lr.end < len(lr.buf) {
		n, err := lr.r.Read(lr.buf[lr.end:])
		lr.end += n
		if err != nil {
			lr.eof = true
			if !errors.Is(err, io.EOF) {
				lr.err = err
			}
			return
		}
		if n > 0 {
			return
		}
	}
}

// next returns the next line without its terminator. tooLong reports a
// line over max, whose bytes are not returned. At the end it returns
// io.EOF, or the reader's error.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	for {
		data := lr.buf[lr.start:lr.end]
		if lr.nl == -2 {
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				lr.nl = lr.start + i
			} else {
				lr.nl = -1
			}
		}
		if lr.cr == -2 {
			if i := bytes.IndexByte(data, '\r'); i >= 0 {
				lr.cr = lr.start + i
			} else {
				lr.cr = -1
			}
		}
		limit := len(data)
		if lr.nl >= 0 {
			limit = lr.nl - lr.start
		}
		if lr.cr >= 0 && lr.cr-lr.start < limit {
			cr := lr.cr - lr.start
			if cr == len(data)-1 && !lr.eof {
				// A CR at the end of the data may be the first half of a CRLF.
				if lr.end-lr.start >= len(lr.buf) {
					return lr.skipLong()
				}
				lr.fill()
				continue
			}
			line = data[:cr]
			lr.start += cr + 1
			lr.cr = -2
			if lr.nl == lr.start {
				lr.start++ // CRLF
				lr.nl = -2
			}
			return lr.checked(line)
		}
		if lr.nl >= 0 {
			line = data[:limit]
			lr.start = lr.nl + 1
			lr.nl = -2
			return lr.checked(line)
		}
		if lr.eof {
			if len(data) == 0 {
				if lr.err != nil {
					return nil, false, lr.err
				}
				return nil, false, io.EOF
			}
			lr.start = lr.end
			return lr.checked(data)
		}
		if len(data) > lr.max {
			return lr.skipLong()
		}
		lr.fill()
	}
}

func (lr *lineReader) checked(line []byte) ([]byte, bool, error) {
	if len(line) > lr.max {
		return nil, true, nil
	}
	return line, false, nil
}

// skipLong discards the rest of an overlong line, up to and including its
// terminator.
func (lr *lineReader) skipLong() ([]byte, bool, error) {
	for {
		data := lr.buf[lr.start:lr.end]
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			lr.start += i + 1
			lr.nl, lr.cr = -2, -2
			if data[i] == '\r' {
				if lr.start == lr.end && !lr.eof {
					lr.fill()
				}
				if lr.start < lr.end && lr.buf[lr.start] == '\n' {
					lr.start++
				}
			}
			return nil, true, nil
		}
		lr.start, lr.nl, lr.cr = lr.end, -2, -2
		if lr.eof {
			return nil, true, nil
		}
		lr.fill()
	}
}
