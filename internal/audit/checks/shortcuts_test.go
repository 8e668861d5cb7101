package checks

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"
)

// stuffingTermsWhole is stuffingTerms as it reads without its shortcuts:
// web addresses searched in the joined text, every text split into
// sentences. The shortcuts must give the same reading.
func stuffingTermsWhole(blocks []string, brand map[string]bool, left *stuffingLeftOut) (int, map[string]int) {
	seen := map[string]bool{}
	var once []string
	for _, b := range blocks {
		if seen[b] {
			left.repeats++
			continue
		}
		seen[b] = true
		once = append(once, b)
	}
	text := webAddressRE.ReplaceAllStringFunc(strings.Join(once, "\n"), func(m string) string {
		if strings.Contains(m, "://") || strings.Contains(m, "@") || domainName(m) {
			left.domains++
			return " "
		}
		return m
	})
	var kept []string
	for _, sentence := range sentenceEndRE.Split(strings.ReplaceAll(text, "\n", ". "), -1) {
		if legalRE.MatchString(sentence) {
			left.legal++
			continue
		}
		kept = append(kept, sentence)
	}
	ws := tokens(strings.Join(kept, " "))
	return len(ws), countTerms(ws, brand, left)
}

// The shortcuts of stuffingTerms (web addresses searched only in blocks
// that may hold one, sentences split only when one may be legal) read
// random pages exactly as the whole reading does.
func TestStuffingTermsShortcuts(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	plain := strings.Fields(`the bakery sourdough loaf loaf loaf 12 € inkl. MwSt. kg 4,99 EUR acme Acme end. why? yes! 。 ！
		12.99 ſ K İ é ß 中文 ア Ⅰ rye crumb oven bread`)
	special := strings.Fields(`example.com e.g. www.Example.co.uk a@b.de https://x.test/p?q=1 http://localhost Photo: LifeDaily.com
		etc.Then © 2026 All rights reserved. Terms of Use Privacy Policy we use cookies affiliate links x.ͅ domain.Name
		trail.runners hiking.Boots`)
	brand := map[string]bool{"acme": true}
	for range 3000 {
		var blocks []string
		for range 1 + r.IntN(6) {
			var b strings.Builder
			for range 1 + r.IntN(40) {
				if r.IntN(30) == 0 {
					b.WriteString(special[r.IntN(len(special))])
				} else {
					b.WriteString(plain[r.IntN(len(plain))])
				}
				b.WriteString([]string{" ", " ", " ", "", "\t", ". "}[r.IntN(6)])
			}
			blocks = append(blocks, b.String())
			if r.IntN(5) == 0 {
				blocks = append(blocks, blocks[r.IntN(len(blocks))])
			}
		}
		var got, want stuffingLeftOut
		gw, gc := stuffingTerms(blocks, brand, &got)
		ww, wc := stuffingTermsWhole(blocks, brand, &want)
		require.Equal(t, ww, gw, "words of %q", blocks)
		require.Equal(t, wc, gc, "terms of %q", blocks)
		require.Equal(t, want, got, "left out of %q", blocks)
	}
}

// mayHoldAddress is false only for text webAddressRE finds nothing in.
func TestMayHoldAddressKeepsEveryMatch(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"example.com", "see www.example.co.uk today", "a@b", "HTTP://X", "x.Ͱa", "x.ͅa", "a.é", "ſ.de"} {
		require.True(t, mayHoldAddress(s), s)
	}
	require.False(t, mayHoldAddress("Prices from 12.99 to 14. Then more."))
	r := rand.New(rand.NewPCG(5, 6))
	parts := []string{"a", "Z", "1", ".", "@", ":", "/", "-", " ", "é", "ͅ", "Ͱ", "ſ", "K", "中", "\n", "http", "s", "com", "de", "_", "%"}
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		if webAddressRE.MatchString(s) {
			require.True(t, mayHoldAddress(s), "%q holds an address", s)
		}
	}
}

// hasInvisible is false only for bodies scanInvisible finds nothing in,
// with or without their code.
func TestHasInvisibleKeepsEveryFinding(t *testing.T) {
	t.Parallel()
	parts := []string{
		"a", " ", "<script>", "</script>", "<style>", "</style>", "£", "·", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff",
		"\U000E0041", "\U000E007F", "\U0001F3F4", "é", "\xff", "\xe2\x80", "<p>", "中",
	}
	r := rand.New(rand.NewPCG(9, 10))
	found := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(16) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		body := b.String()
		sc := scanInvisible(stripCode(body))
		if sc.tagChars > 0 || sc.zwRuns > 0 {
			found++
			require.True(t, hasInvisible([]byte(body)), "%q holds invisible text", body)
		}
	}
	require.Positive(t, found)
	require.False(t, hasInvisible([]byte("<p>Free UK delivery over £50 · Kendal</p>")))
}

// overlayElements counts what overlaySelector finds.
func TestOverlayElementsCountWhatTheSelectorFinds(t *testing.T) {
	t.Parallel()
	parts := []string{
		`<div class="popup">`, `<div id="exit-intent-x">`, `<span class="a pop-up b">`, `<p id="PAYWALL">`,
		`<section class="paywall" id="popup">`, `<aside data-class="popup">`, `<i class="inter stitial">`, `<b id="interstitial">`,
		`</div>`, `</span>`, `text`, `<template><div class="popup"></div></template>`, `<svg><g class="popup"/></svg>`,
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
		require.NoError(t, err)
		require.Equal(t, doc.Find(overlaySelector).Length(), overlayElements(doc.Nodes), b.String())
	}
}
