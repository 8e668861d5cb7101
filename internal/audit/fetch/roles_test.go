package fetch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLinkRoleReadsTheWebsLanguages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		href, text string
		want       Purpose
	}{
		// Link texts, whatever the address says.
		{"/page/12", "Контакты", Contact},
		{"/page/13", "О компании", About},
		{"/seite/3", "Über uns", About},
		{"/seite/4", "Impressum", Contact},
		{"/p/1", "Quiénes somos", About},
		{"/p/2", "Contáctenos", Contact},
		{"/p/3", "Fale conosco", Contact},
		{"/p/4", "Chi siamo", About},
		{"/p/5", "Contatti", Contact},
		{"/p/6", "Qui sommes-nous ?", About},
		{"/p/7", "Nous contacter", Contact},
		{"/p/8", "Hakkımızda", About},
		{"/p/9", "İletişim", Contact},
		{"/p/10", "Over ons", About},
		{"/p/11", "O nas", About},
		{"/p/12", "Kontakt", Contact},
		{"/p/13", "お問い合わせ", Contact},
		{"/p/14", "会社概要", About},
		{"/p/15", "联系我们", Contact},
		{"/p/16", "關於我們", About},
		{"/p/17", "회사소개", About},
		{"/p/18", "문의하기", ""}, // a Korean word is whole: 문의 is not 문의하기
		{"/p/19", "Liên hệ", Contact},
		{"/p/20", "Tentang Kami", About},
		{"/p/21", "اتصل بنا", Contact},
		{"/p/22", "درباره ما", About},
		{"/p/23", "צור קשר", Contact},
		{"/p/24", "Επικοινωνία", Contact},
		{"/p/25", "Om oss", About},
		{"/p/26", "Yhteystiedot", Contact},
		{"/p/27", "Kapcsolat", Contact},
		{"/p/28", "ติดต่อเรา", Contact},
		{"/p/29", "Despre noi", About},
		{"/p/30", "Про нас", About},
		{"/p/31", "Visit & contact", Contact},
		{"/p/32", "About & contact", About},
		// Addresses, when the text says nothing.
		{"/kontakt/", "", Contact},
		{"/contacto", "", Contact},
		{"/impressum.html", "", Contact},
		{"/o-nas/", "", About},
		{"/uber-uns", "", About},
		{"/quienes-somos/", "", About},
		{"/iletisim", "", Contact},
		{"/lien-he", "", Contact},
		{"/wiki/Site:About", "Site", About},
		{"/wiki/Tidewater_Wiki:Contact_us", "", Contact},
		{"https://example.com/%D0%BA%D0%BE%D0%BD%D1%82%D0%B0%D0%BA%D1%82%D1%8B/", "", Contact},
		// Neither: a word inside another page's address or text.
		{"/blog/about-our-new-menu/", "", ""},
		{"/products/contactless-card", "", ""},
		{"/news/123", "How to contact your MP: a guide", Contact}, // a text is read as words, as a reader would
		{"/shop", "Shop", ""},
		{"/", "Home", ""},
	} {
		require.Equal(t, c.want, LinkRole(c.href, c.text), "%s %q", c.href, c.text)
	}
}

func TestKeyPagesInOtherLanguages(t *testing.T) {
	t.Parallel()
	site, _ := siteFrom(t, map[string]file{
		"/": {"text/html", `<html lang="ru"><body><a href="/catalog/">Каталог</a>
			<a href="/page/7">О компании</a>
			<a href="/page/9">Контакты</a></body></html>`},
	})
	require.Len(t, site.PagesFor(About), 1)
	require.True(t, strings.HasSuffix(site.PagesFor(About)[0].URL, "/page/7"))
	require.Len(t, site.PagesFor(Contact), 1)
	require.True(t, strings.HasSuffix(site.PagesFor(Contact)[0].URL, "/page/9"))
}
