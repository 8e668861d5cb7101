package crawlerlog

import (
	"strings"

	"github.com/geoscan/geoscan/internal/audit/robots"
)

// tokenTable finds the product token of robots.Agents a user agent names.
// A token matches a whole word of the user agent, case-insensitively,
// where words are runs of letters, digits, '-' and '_': "GPTBot/1.2" and
// "compatible; OAI-SearchBot/1.0" name their tokens, "Googlebot-Image"
// and "NotGPTBot" do not name Googlebot or GPTBot.
type tokenTable struct {
	agents []robots.Agent
	index  map[string]int // lower-case token → agents index
	// firsts has, for each word length, a bit per first letter some token
	// of that length starts with: most words of a browser's user agent
	// are rejected without a map lookup.
	firsts [maxTokenLen + 1]uint32
}

const maxTokenLen = 31

func newTokenTable() *tokenTable {
	t := &tokenTable{index: map[string]int{}}
	for _, a := range robots.Agents {
		tok := strings.ToLower(a.Token)
		if len(tok) > maxTokenLen || len(tok) == 0 || tok[0] < 'a' || tok[0] > 'z' {
			continue
		}
		t.index[tok] = len(t.agents)
		t.agents = append(t.agents, a)
		t.firsts[len(tok)] |= 1 << (tok[0] - 'a')
	}
	return t
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// match returns the index of the first token the user agent names, or -1.
func (t *tokenTable) match(ua []byte) int {
	var lower [maxTokenLen]byte
	for i := 0; i < len(ua); {
		if !isWordByte(ua[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(ua) && isWordByte(ua[j]) {
			j++
		}
		w := ua[i:j]
		i = j
		if len(w) > maxTokenLen {
			continue
		}
		c := w[0] | 0x20
		if c < 'a' || c > 'z' || t.firsts[len(w)]&(1<<(c-'a')) == 0 {
			continue
		}
		for k, b := range w {
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			lower[k] = b
		}
		if idx, ok := t.index[string(lower[:len(w)])]; ok {
			return idx
		}
	}
	return -1
}
