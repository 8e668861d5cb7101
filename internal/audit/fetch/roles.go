package fetch

import (
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// roleWords are the words that name an about page and a contact page in
// the twenty-odd languages most of the web is written in, as link texts
// and as URL slugs (transliterated slugs such as o-nas, iletisim or lien-he
// included). They are compared folded: lower case, without diacritics,
// punctuation and separators read as spaces.
var roleWords = map[Purpose][]string{
	About: {
		// English
		"about", "about us", "who we are", "our story", "company", "our company", "the team", "team",
		// Spanish, Portuguese, Italian, French, Romanian
		"sobre nosotros", "quienes somos", "acerca de", "nosotros", "empresa", "sobre nos", "quem somos", "sobre",
		"chi siamo", "azienda", "su di noi", "a propos", "qui sommes nous", "notre histoire", "entreprise", "despre noi",
		// German, Dutch, Scandinavian, Finnish, Polish, Czech, Hungarian
		"uber uns", "ueber uns", "unternehmen", "wir uber uns", "over ons", "om oss", "om os", "om foretaget",
		"meista", "tietoa meista", "o nas", "o firmie", "o spolecnosti", "rolunk", "cegunkrol",
		// Russian, Ukrainian, Greek, Turkish
		"о нас", "о компании", "компания", "про нас", "про компанию", "σχετικα με εμας", "ποιοι ειμαστε", "εταιρεια",
		"hakkimizda", "hakkımızda", "kurumsal",
		// Arabic, Persian, Hebrew
		"من نحن", "عن الشركة", "معلومات عنا", "درباره ما", "אודות", "עלינו",
		// Vietnamese, Indonesian, Thai
		"gioi thieu", "ve chung toi", "tentang kami", "tentang", "เกี่ยวกับเรา",
		// Chinese, Japanese, Korean
		"关于我们", "關於我們", "公司简介", "公司簡介", "会社概要", "企業情報", "私たちについて", "会社案内", "회사소개", "소개",
	},
	Contact: {
		// English
		"contact", "contact us", "contacts", "get in touch", "reach us",
		// Spanish, Portuguese, Italian, French, Romanian
		"contacto", "contactenos", "contactanos", "contato", "fale conosco", "contatti", "contattaci",
		"contactez nous", "nous contacter",
		// German (the Impressum must give contact details by law), Dutch,
		// Scandinavian, Finnish, Polish, Czech, Hungarian
		"kontakt", "impressum", "kontaktformular", "neem contact op", "kontakta oss", "yhteystiedot", "ota yhteytta",
		"kontakty", "kapcsolat", "elerhetoseg", "elerhetosegek",
		// Russian, Ukrainian, Greek, Turkish
		"контакты", "контакт", "связаться с нами", "обратная связь", "контакти", "зв'язатися з нами", "επικοινωνια",
		"iletisim", "bize ulasin",
		// Arabic, Persian, Hebrew
		"اتصل بنا", "تواصل معنا", "تماس با ما", "צור קשר",
		// Vietnamese, Indonesian, Thai
		"lien he", "hubungi kami", "kontak", "ติดต่อเรา",
		// Chinese, Japanese, Korean
		"联系我们", "聯絡我們", "聯繫我們", "お問い合わせ", "お問合せ", "問い合わせ", "コンタクト", "문의", "연락처", "고객센터",
	},
}

// folded is roleWords folded once, by role.
var folded = func() map[Purpose][]string {
	out := map[Purpose][]string{}
	for role, words := range roleWords {
		for _, w := range words {
			out[role] = append(out[role], fold(w))
		}
	}
	return out
}()

// fold lowers s, drops its diacritics (and the combining marks of scripts
// whose vowels are marks) and turns everything but letters and digits
// into single spaces.
func fold(s string) string {
	// ASCII has no diacritics: the transform, whose buffers cost more
	// than the string on a page of thousands of links, is skipped.
	if !ascii(s) {
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		if r, _, err := transform.String(t, s); err == nil {
			s = r
		}
	}
	s = strings.ToLower(s)
	var b strings.Builder
	space := true
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// spaced says whether a script separates its words with spaces; in the
// others (Chinese, Japanese, Thai) a role word may stand inside a longer
// run of letters.
func spaced(word string) bool {
	for _, r := range word {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai) {
			return false
		}
	}
	return true
}

// namesRole says whether a folded text holds one of role's words as
// whole words.
func namesRole(text string, role Purpose) bool {
	if text == "" {
		return false
	}
	padded := " " + text + " "
	for _, w := range folded[role] {
		if spaced(w) {
			if strings.Contains(padded, " "+w+" ") {
				return true
			}
		} else if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// LinkRole says which of About and Contact a link leads to, by its text
// ("Контакты", "Über uns") or by a segment of its address (/kontakt,
// /contacto, /impressum, /o-nas, a wiki's Site:About); "" when neither.
// About wins a link that names both ("About & contact").
func LinkRole(href, text string) Purpose {
	t := fold(text)
	for _, role := range []Purpose{About, Contact} {
		if namesRole(t, role) {
			return role
		}
	}
	if u, err := url.Parse(href); err == nil {
		// A segment names a page by being a role word (/about-us/,
		// /kontakt.html, a wiki's Site:About), not by containing one
		// (/blog/about-our-new-menu/).
		for _, seg := range strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' || r == ':' }) {
			seg = fold(strings.TrimSuffix(seg, pathExt(seg)))
			for _, role := range []Purpose{About, Contact} {
				if slices.Contains(folded[role], seg) {
					return role
				}
			}
		}
	}
	return ""
}

// pathExt is a segment's file extension (".html"), "" for none.
func pathExt(seg string) string {
	if i := strings.LastIndexByte(seg, '.'); i > 0 && len(seg)-i <= 5 {
		return seg[i:]
	}
	return ""
}
