package dbmigrate

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

type hasher struct{ h hash.Hash }

func newHasher() *hasher { return &hasher{h: sha256.New()} }

func (h *hasher) add(name string, body []byte) {
	h.h.Write([]byte(name))
	h.h.Write([]byte{0})
	h.h.Write(body)
	h.h.Write([]byte{0})
}

// sum returns 12 hex characters: short enough for a database name.
func (h *hasher) sum() string { return hex.EncodeToString(h.h.Sum(nil))[:12] }
