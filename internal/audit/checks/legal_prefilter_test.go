package checks

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The keyword gate in front of legalRE never hides a sentence the
// expression would match: every alternative, in any case, in the languages
// it lists, and random sentences built around them.
func TestLegalPrefilterKeepsEveryMatch(t *testing.T) {
	t.Parallel()
	legal := []string{
		"© 2026 Northwind", "(c) 2025 Acme Ltd", "Copyright Acme", "All rights reserved",
		"Alle Rechte vorbehalten", "Tous droits réservés", "Todos los derechos reservados",
		"Tutti i diritti riservati", "Todos os direitos reservados", "Alle rechten voorbehouden",
		"Acme is a registered trademark", "trademarks of their owners", "Terms of Use", "Terms of Service",
		"Terms and Conditions", "terms & conditions", "Privacy Policy", "privacy notice", "Privacy Statement",
		"We use cookies to improve", "This website uses cookies", "Cookie settings", "cookie consent",
		"Datenschutz", "Impressum", "Haftungsausschluss", "Disclaimer", "We cannot be held liable",
		"not responsible for", "This post contains affiliate links", "we earn a commission",
		"we may earn an affiliate commission", "ALL RIGHTſ RESERVED", "TRADEMARK OF", "COOKIE POLICY",
	}
	for _, s := range legal {
		require.True(t, legalRE.MatchString(s), "the table's sentence %q is legal", s)
		require.True(t, mayBeLegal(s), "%q passes the gate", s)
	}
	require.False(t, mayBeLegal("Our sourdough is baked every morning in Hebden Bridge"))

	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the of and we Acme bakery sourdough reserved all use uses site this be held not earn a an 2024 © (c) policy conditions ſ K İ é ß")
	for range 20000 {
		var b strings.Builder
		for range 2 + r.IntN(8) {
			w := words[r.IntN(len(words))]
			if r.IntN(4) == 0 {
				w = strings.ToUpper(w)
			}
			b.WriteString(w + " ")
		}
		if r.IntN(3) == 0 {
			b.WriteString(legal[r.IntN(len(legal))])
		}
		s := b.String()
		if legalRE.MatchString(s) {
			require.True(t, mayBeLegal(s), "%q matches legalRE but not the gate", s)
		}
	}
}
