// Package auth owns API keys: their format (geo_ + 32 random base62
// characters + a 6-character CRC32 checksum), generation (Issue), SHA-256
// hashing, and the request principal that authentication puts into the
// context. The store keeps only what Issue says to keep.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"math/big"
	"strings"
)

// KeyPrefix starts every API key.
const KeyPrefix = "geo_"

const (
	randomLen   = 32
	checksumLen = 6
	// KeyLen is the length of a whole key.
	KeyLen   = len(KeyPrefix) + randomLen + checksumLen
	alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// ErrMalformedKey means the string cannot be a GeoScan key; it is refused
// without a database lookup.
var ErrMalformedKey = errors.New("malformed api key")

// NewKey returns a fresh random key. 32 base62 characters carry about 190
// bits, so a fast hash is enough to store it.
func NewKey() (string, error) {
	var b strings.Builder
	b.Grow(KeyLen)
	b.WriteString(KeyPrefix)
	max := big.NewInt(int64(len(alphabet)))
	random := make([]byte, randomLen)
	for i := range random {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		random[i] = alphabet[n.Int64()]
	}
	b.Write(random)
	b.WriteString(checksum(random))
	return b.String(), nil
}

// Issued is a new key: Key goes to its owner once and is never stored;
// Hash and Display are what is kept of it.
type Issued struct {
	Key     string
	Hash    []byte
	Display string
}

// Issue generates a key and what is stored of it.
func Issue() (Issued, error) {
	key, err := NewKey()
	if err != nil {
		return Issued{}, fmt.Errorf("generate key: %w", err)
	}
	return Issued{Key: key, Hash: HashKey(key), Display: DisplayPrefix(key)}, nil
}

// checksum encodes the CRC32 of the random part as 6 base62 characters, so a
// mistyped or made-up key is recognised offline (as GitHub's tokens are).
func checksum(random []byte) string {
	n := crc32.ChecksumIEEE(random)
	out := make([]byte, checksumLen)
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = alphabet[n%62]
		n /= 62
	}
	return string(out)
}

// ParseKey checks the format and checksum of key.
func ParseKey(key string) error {
	if len(key) != KeyLen || !strings.HasPrefix(key, KeyPrefix) {
		return ErrMalformedKey
	}
	body := key[len(KeyPrefix):]
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(alphabet, body[i]) < 0 {
			return ErrMalformedKey
		}
	}
	random := []byte(body[:randomLen])
	if checksum(random) != body[randomLen:] {
		return ErrMalformedKey
	}
	return nil
}

// HashKey is what the database stores and looks keys up by.
func HashKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// DisplayPrefix is how a key is shown after creation: enough to recognise
// it, far too little to use it.
func DisplayPrefix(key string) string {
	if len(key) < KeyLen {
		return KeyPrefix + "…"
	}
	return key[:len(KeyPrefix)+4] + "…" + key[len(key)-4:]
}
