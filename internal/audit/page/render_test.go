package page_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
)

// scriptCopy is what a site's scripts say in one language: a consent
// banner, form and error messages, a long newsletter note of a
// translation table, a teaser of another post, and an article.
type scriptCopy struct {
	lang, consent, required, email, failure, newsletter, teaser, article string
}

var scriptCopies = []scriptCopy{
	{
		lang:       "en",
		consent:    "We use cookies and similar technologies to give you the best experience on our website, to analyse our traffic and to personalise the ads you see. By clicking Accept all you agree to the storing of cookies on your device. You can change your choice at any time in the cookie settings at the bottom of every page.",
		required:   "This field is required.",
		email:      "Please enter a valid email address so that we can send you the confirmation.",
		failure:    "Something went wrong while loading this page. Please check your connection and try again in a few minutes.",
		newsletter: "By subscribing you agree to receive our weekly newsletter with recipes, news from the bakery and occasional offers. You can unsubscribe at any time with the link at the end of every email, and we never pass your address on to anybody else.",
		teaser:     "The starter we have fed every morning since 2011 has a story of its own, and in this post our head baker explains how she keeps it alive through holidays, heatwaves and the occasional forgotten weekend in the back of the fridge.",
		article:    "The harbour authority approved the new ferry timetable on Monday after a long consultation with islanders and operators. From May, the first boat leaves the mainland at six in the morning, an hour earlier than now, and the last returns at eleven at night. Islanders had asked for the change for years, because the old timetable made it impossible to commute to the hospital and the college on the mainland.",
	},
	{
		lang:       "de",
		consent:    "Wir verwenden Cookies und ähnliche Technologien, um Ihnen das beste Erlebnis auf unserer Website zu bieten, unseren Datenverkehr zu analysieren und Werbung zu personalisieren. Mit einem Klick auf „Alle akzeptieren“ stimmen Sie der Speicherung von Cookies auf Ihrem Gerät zu. Ihre Auswahl können Sie jederzeit in den Cookie-Einstellungen ändern.",
		required:   "Dieses Feld ist ein Pflichtfeld.",
		email:      "Bitte geben Sie eine gültige E-Mail-Adresse ein, damit wir Ihnen die Bestätigung schicken können.",
		failure:    "Leider ist ein Fehler aufgetreten. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es später erneut.",
		newsletter: "Mit Ihrer Anmeldung erklären Sie sich einverstanden, unseren wöchentlichen Newsletter mit Rezepten, Neuigkeiten aus der Backstube und gelegentlichen Angeboten zu erhalten. Sie können sich jederzeit über den Link am Ende jeder E-Mail abmelden, und wir geben Ihre Adresse niemals an Dritte weiter.",
		teaser:     "Der Sauerteig, den wir seit 2011 jeden Morgen füttern, hat seine eigene Geschichte, und in diesem Beitrag erklärt unsere Bäckermeisterin, wie sie ihn über Urlaube, Hitzewellen und das eine oder andere vergessene Wochenende im Kühlschrank am Leben hält.",
		article:    "Die Hafenbehörde hat am Montag nach langer Beratung mit Inselbewohnern und Reedereien den neuen Fährfahrplan genehmigt. Ab Mai legt das erste Schiff um sechs Uhr morgens am Festland ab, eine Stunde früher als bisher, und das letzte kehrt um elf Uhr abends zurück. Die Inselbewohner hatten die Änderung seit Jahren gefordert, weil der alte Fahrplan das Pendeln zum Krankenhaus und zur Schule auf dem Festland unmöglich machte.",
	},
	{
		lang:       "fr",
		consent:    "Nous utilisons des cookies et des technologies similaires pour vous offrir la meilleure expérience sur notre site, mesurer notre audience et personnaliser les publicités. En cliquant sur « Tout accepter », vous consentez au dépôt de cookies sur votre appareil. Vous pouvez modifier votre choix à tout moment dans les paramètres des cookies.", //nolint:misspell // French
		required:   "Ce champ est obligatoire.",
		email:      "Veuillez saisir une adresse e-mail valide afin que nous puissions vous envoyer la confirmation.",
		failure:    "Une erreur s'est produite lors du chargement de la page. Vérifiez votre connexion puis réessayez dans quelques minutes.",
		newsletter: "En vous inscrivant, vous acceptez de recevoir notre lettre hebdomadaire avec des recettes, des nouvelles du fournil et quelques offres. Vous pouvez vous désinscrire à tout moment grâce au lien en bas de chaque message, et nous ne transmettons jamais votre adresse à personne.",
		teaser:     "Le levain que nous nourrissons chaque matin depuis 2011 a sa propre histoire, et dans cet article notre cheffe boulangère explique comment elle le garde en vie pendant les vacances, les canicules et les week-ends oubliés au fond du réfrigérateur.",
		article:    "L'autorité portuaire a approuvé lundi le nouvel horaire des ferries après une longue consultation avec les insulaires et les compagnies. À partir de mai, le premier bateau quittera le continent à six heures du matin, une heure plus tôt qu'aujourd'hui, et le dernier rentrera à vingt-trois heures. Les insulaires réclamaient ce changement depuis des années, car l'ancien horaire rendait impossibles les trajets quotidiens vers l'hôpital et le lycée du continent.",
	},
	{
		lang:       "es",
		consent:    "Utilizamos cookies propias y de terceros para ofrecerte la mejor experiencia en nuestro sitio web, analizar el tráfico y personalizar la publicidad. Si haces clic en «Aceptar todas», aceptas el almacenamiento de cookies en tu dispositivo. Puedes cambiar tu elección en cualquier momento en la configuración de cookies.", //nolint:misspell // Spanish
		required:   "Este campo es obligatorio.",
		email:      "Por favor, introduce una dirección de correo electrónico válida para que podamos enviarte la confirmación.",
		failure:    "Se ha producido un error al cargar la página. Comprueba tu conexión e inténtalo de nuevo dentro de unos minutos.",
		newsletter: "Al suscribirte aceptas recibir nuestro boletín semanal con recetas, noticias del obrador y alguna oferta ocasional. Puedes darte de baja en cualquier momento con el enlace que aparece al final de cada correo, y nunca compartimos tu dirección con nadie.", //nolint:misspell // Spanish
		teaser:     "La masa madre que alimentamos cada mañana desde 2011 tiene su propia historia, y en este artículo nuestra maestra panadera explica cómo la mantiene viva durante las vacaciones, las olas de calor y algún fin de semana olvidada en el fondo de la nevera.",
		article:    "La autoridad portuaria aprobó el lunes el nuevo horario de los transbordadores tras una larga consulta con los isleños y las navieras. A partir de mayo, el primer barco saldrá del continente a las seis de la mañana, una hora antes que ahora, y el último regresará a las once de la noche. Los isleños llevaban años pidiendo el cambio, porque el horario anterior hacía imposible ir a diario al hospital y al instituto del continente.", //nolint:misspell // Spanish
	},
	{
		lang:       "ru",
		consent:    "Мы используем файлы cookie и похожие технологии, чтобы сайт работал лучше, анализировать посещаемость и показывать подходящую рекламу. Нажимая «Принять все», вы соглашаетесь на хранение файлов cookie на вашем устройстве. Изменить свой выбор можно в любое время в настройках cookie внизу каждой страницы.",
		required:   "Это обязательное поле.",
		email:      "Пожалуйста, введите корректный адрес электронной почты, чтобы мы могли отправить вам подтверждение.",
		failure:    "Произошла ошибка при загрузке страницы. Проверьте подключение к интернету и попробуйте ещё раз через несколько минут.",
		newsletter: "Подписываясь, вы соглашаетесь получать наш еженедельный бюллетень с рецептами, новостями пекарни и редкими предложениями. Отписаться можно в любой момент по ссылке в конце каждого письма, и мы никогда никому не передаём ваш адрес и не продаём его рекламодателям.",
		teaser:     "У закваски, которую мы кормим каждое утро с 2011 года, своя история, и в этой статье наш главный пекарь рассказывает, как сохраняет её живой во время отпусков, жары и забытых выходных в глубине холодильника, где она ждёт своего часа.",
		article:    "Портовое управление в понедельник утвердило новое расписание паромов после долгих консультаций с жителями острова и перевозчиками. С мая первый паром будет отходить от материка в шесть утра, на час раньше, чем сейчас, а последний будет возвращаться в одиннадцать вечера. Жители острова годами добивались этих изменений, потому что по старому расписанию невозможно было ежедневно ездить в больницу и колледж на материке.",
	},
	{
		lang:       "ja",
		consent:    "当サイトでは、より良い体験の提供、アクセス解析、広告の最適化のためにCookieおよび類似の技術を使用しています。「すべて同意する」をクリックすると、お使いの端末へのCookieの保存に同意したことになります。設定はいつでもページ下部のCookie設定から変更できます。",
		required:   "この項目は必須です。",
		email:      "確認メールをお送りするため、有効なメールアドレスを入力してください。",
		failure:    "ページの読み込み中にエラーが発生しました。接続を確認して、しばらくしてからもう一度お試しください。",
		newsletter: "ご登録いただくと、レシピやパン工房のお知らせ、時々のお得な情報をお届けする週刊ニュースレターの受け取りに同意したことになります。配信はいつでも各メールの末尾にあるリンクから停止でき、お客様のアドレスを第三者に渡すことは一切ありません。",
		teaser:     "2011年から毎朝種継ぎしている私たちのサワー種には独自の物語があります。この記事では、ヘッドベイカーが休暇や猛暑、冷蔵庫の奥で忘れられた週末を乗り越えて、どのように種を生かし続けているかを紹介します。",
		article:    "港湾局は月曜日、島民や運航会社との長い協議を経て、新しいフェリーの時刻表を承認した。五月からは、本土を出る始発便が現在より一時間早い午前六時になり、最終便は午後十一時に島へ戻る。古い時刻表では本土の病院や学校へ毎日通うことができなかったため、島民は何年も前からこの変更を求めていた。",
	},
}

// thinPage is a page with a few visible words and the given scripts: if
// they held the page's text, it would wait for JavaScript.
func thinPage(lang, scripts string) string {
	return `<!doctype html><html lang="` + lang + `"><head><title>Bakery</title></head><body><div id="app"><h1>Bakery</h1><p>Open daily.</p></div>` + scripts + `</body></html>`
}

// jsonText marshals v as a page embeds it: HTML-escaped, so "</" cannot
// close the script.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func jsonScript(t *testing.T, id string, v any) string {
	return `<script type="application/json" id="` + id + `">` + jsonText(t, v) + `</script>`
}

type obj = map[string]any

// TestScriptTextThatIsNoPageText holds the script strings of real pages
// that read like sentences and are no part of the page, in six
// languages: none of their words counts as text waiting in scripts.
func TestScriptTextThatIsNoPageText(t *testing.T) {
	t.Parallel()
	for _, c := range scriptCopies {
		q := strconv.Quote
		cases := map[string]string{
			// Consent managers: a config object, a banner written with
			// markup, texts under keys that name content.
			"consent config": `<script>window.cookieconsent.initialise({"palette":{"popup":{"background":"#000"}},"content":{"message":` + q(c.consent) + `,"dismiss":"OK","link":"Cookie policy"}});</script>`,
			"consent banner template": `<script>document.getElementById("cc").innerHTML = '<div class="cc-banner"><p>' + ` + q(c.consent) + ` + '</p><button>OK</button></div>';
var tpl = "<div class=\"consent\"><h2>Cookies</h2><p>` + strings.ReplaceAll(c.consent, `"`, `\"`) + `</p></div>";</script>`,
			"consent texts as data": jsonScript(t, "cmp-config", obj{"texts": obj{"intro": c.consent, "accept": "OK"}}),
			// Forms and errors: a validator's messages, an error page's
			// template, a failure rendered from content-named data.
			"validation messages": `<script>jQuery.extend(jQuery.validator.messages, {required: ` + q(c.required) + `, email: ` + q(c.email) + `});
form.addEventListener("invalid", function (e) { e.target.setCustomValidity(` + q(c.email) + `) });</script>`,
			"error template":        `<script>function fail(el) { el.innerHTML = '<div class="error"><h2>Oops</h2><p>` + strings.ReplaceAll(c.failure, "'", `\'`) + `</p></div>'; }</script>`,
			"error in content data": jsonScript(t, "state", obj{"page": obj{"content": obj{"body": "<p>" + c.failure + "</p>"}, "statusCode": 500}}),
			// Translation tables: next-i18next's store, a flat table of
			// message ids, camelCase keys, the same text by language.
			"next-i18next store": jsonScript(t, "__NEXT_DATA__", obj{"props": obj{"pageProps": obj{"_nextI18Next": obj{"initialI18nStore": obj{c.lang: obj{"common": obj{
				"newsletterNote": c.newsletter, "welcome": "Bakery", "addToCart": "Add",
			}}}}}}, "page": "/", "buildId": "b1"}),
			"flat message table": `<script>window.__APP__ = ` + jsonText(t, obj{
				"newsletter.note": c.newsletter, "newsletter.title": "Newsletter", "newsletter.button": "OK", "cart.add": "+", "cart.remove": "-",
				"cart.empty": c.required, "form.email": c.email, "form.required": c.required, "footer.about": c.teaser[:len(c.teaser)/3],
			}) + `;</script>`,
			"camelCase message table": `<script>var data = ` + jsonText(t, obj{
				"newsletterNote": c.newsletter, "newsletterTitle": "News", "subscribeButton": "OK", "addToCart": "+", "removeFromCart": "-",
				"emptyCart": c.required, "emailInvalid": c.email, "fieldRequired": c.required, "loadFailed": c.failure,
			}) + `;</script>`,
			"texts by language": jsonScript(t, "page-data", obj{"story": obj{"en": obj{"body": scriptCopies[0].article}, "de": obj{"body": scriptCopies[1].article}, "fr": obj{"body": scriptCopies[2].article}}}),
			// Other posts' teasers, under a key that says nothing.
			"related posts": jsonScript(t, "__NEXT_DATA__", obj{"props": obj{"pageProps": obj{"items": []obj{
				{"title": "Starter", "summary": c.teaser, "url": "/journal/starter/"},
				{"title": "Rye", "summary": c.teaser + " 2", "url": "/journal/rye/"},
				{"title": "Spelt", "summary": c.teaser + " 3", "url": "/journal/spelt/"},
			}}}}),
		}
		for name, scripts := range cases {
			t.Run(c.lang+"/"+name, func(t *testing.T) {
				r := parse(t, thinPage(c.lang, scripts)).Rendering()
				require.Zero(t, r.ScriptWords, "%q", r.ScriptOnlySample)
				require.Zero(t, r.ScriptOnlyWords)
			})
		}
	}

	// Keys, blobs, CSS and addresses, whatever the language.
	blob := strings.Repeat("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx7", 4)
	for name, scripts := range map[string]string{
		"keys and blobs": `<script>window.__CONFIG__ = ` + jsonText(t, obj{
			"recaptchaSiteKey": "6LcXq2AUAAAAAB-7ZPm8cM3lUd1qX0Hq3y4r9s2K",
			"publicKey":        "-----BEGIN PUBLIC KEY-----\n" + blob[:64] + "\n" + blob[64:128] + "\n" + blob[128:] + "\n-----END PUBLIC KEY-----",
			"content":          "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg== " + blob,
			"hashes":           []string{"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"},
		}) + `;</script>`,
		"css strings": `<script>bar.style.cssText = "position: fixed; bottom: 0; left: 0; width: 100%; z-index: 9999; background: white; box-shadow: 0 0 4px rgba(0,0,0,.2);";
document.head.insertAdjacentHTML("beforeend", "<style>.promo-banner { display: flex; align-items: center; justify-content: space-between; padding: 12px 24px; font-family: Georgia, serif; }</style>");</script>` +
			jsonScript(t, "theme", obj{"theme": obj{"content": "body { font-family: Georgia, serif; color: dimgray; line-height: 1.6; } .post p { margin: 0 0 1em; font-size: large; } .post h2 { font-weight: bold; }"}}),
		"payloads of other shapes": `<script id="__NEXT_DATA__" type="application/json">["props", 1, 2]</script>` +
			`<script id="__NUXT_DATA__" type="application/json">[[], {"a": 1}, [0, 1, 2, -1, 99], {"b": 2}, "x"]</script>` +
			`<script type="application/json" id="cut">{"post": {"body": "The story stops here because the payload was cut</script>` +
			`<script>window.__STATE__ = {"a": [1, 2, {"b": null}]}; window.broken = {"unquoted": yes};</script>`,
		"urls": `<script>var preload = ["https://cdn.example.net/a.js", "https://cdn.example.net/b.js"]; var text = "https://cdn.example.net/fonts/a.woff2 https://cdn.example.net/fonts/b.woff2 https://cdn.example.net/fonts/c.woff2 /static/img/hero.webp /static/img/logo.svg /static/img/team.jpg";</script>`,
	} {
		t.Run(name, func(t *testing.T) {
			r := parse(t, thinPage("en", scripts)).Rendering()
			require.Zero(t, r.ScriptWords, "%q", r.ScriptOnlySample)
		})
	}
}

// TestScriptTextThatIsThePage holds the client-rendered pages whose
// article sits only in their scripts, beside the look-alikes above: the
// article's words, and only those, count.
func TestScriptTextThatIsThePage(t *testing.T) {
	t.Parallel()
	for _, c := range scriptCopies {
		noise := `<script>window.cookieconsent.initialise({"content":{"message":` + strconv.Quote(c.consent) + `}});</script>`
		paragraphs := strings.SplitAfter(c.article, ". ")
		if c.lang == "ja" {
			paragraphs = strings.SplitAfter(c.article, "。")
		}
		var blocks []obj
		for _, p := range paragraphs {
			if p = strings.TrimSpace(p); p != "" {
				blocks = append(blocks, obj{"type": "paragraph", "text": p})
			}
		}
		for name, scripts := range map[string]string{
			// Next.js without server rendering: the post in pageProps, the
			// translations beside it.
			"next.js pageProps": `<div id="__next"></div>` + jsonScript(t, "__NEXT_DATA__", obj{"props": obj{"pageProps": obj{
				"post":         obj{"title": "Ferry", "slug": "ferry", "content": "<p>" + strings.Join(paragraphs, "</p><p>") + "</p>"},
				"_nextI18Next": obj{"initialI18nStore": obj{c.lang: obj{"common": obj{"newsletterNote": c.newsletter}}}},
				"relatedPosts": []obj{{"title": "Starter", "excerpt": c.teaser, "slug": "starter"}, {"title": "Rye", "excerpt": c.teaser, "slug": "rye"}},
			}}, "page": "/posts/[slug]", "query": obj{"slug": "ferry"}, "buildId": "b1"}),
			// Nuxt 3's payload, in devalue's flat form.
			"nuxt payload": `<div id="__nuxt"></div><script type="application/json" id="__NUXT_DATA__" data-ssr="false">` +
				jsonText(t, []any{[]any{"ShallowReactive", 1}, obj{"data": 2, "state": 5}, []any{"ShallowReactive", 3}, obj{"post-ferry": 4}, obj{"title": 6, "body": 7}, obj{}, "Ferry", c.article}) + `</script>`,
			// A template written into the page.
			"innerHTML template": `<script>document.getElementById("app").innerHTML = '<article><p>` + strings.ReplaceAll(c.article, "'", `\'`) + `</p></article>';</script>`,
			// A state object of rich-text blocks, each under a content key.
			"state blocks": `<script>window.__INITIAL_STATE__ = ` + jsonText(t, obj{"article": obj{"title": "Ferry", "blocks": blocks}, "ui": obj{"loading": false}}) + `;</script>`,
		} {
			t.Run(c.lang+"/"+name, func(t *testing.T) {
				r := parse(t, thinPage(c.lang, noise+scripts)).Rendering()
				require.Equal(t, page.CountWords(c.article), r.ScriptOnlyWords, "%q", r.ScriptOnlySample)
				// Paragraphs read apart leave a space between them, in
				// Japanese too.
				bare := func(s string) string { return strings.ReplaceAll(s, " ", "") }
				require.NotEmpty(t, r.ScriptOnlySample)
				require.Contains(t, bare(c.article), bare(strings.TrimSuffix(r.ScriptOnlySample, "…")), "the sample is the article's")
			})
		}
	}
}

// TestScriptTextShownInTheHTML holds a hydration copy to the visible
// text, punctuation, entities and markup aside.
func TestScriptTextShownInTheHTML(t *testing.T) {
	t.Parallel()
	for _, c := range scriptCopies {
		html := `<!doctype html><html lang="` + c.lang + `"><body><div id="__next"><article><h1>Ferry</h1><p>` +
			strings.ReplaceAll(c.article, ", ", ",  ") + `</p></article></div>` +
			jsonScript(t, "__NEXT_DATA__", obj{"props": obj{"pageProps": obj{"post": obj{"body": "<p>" + strings.ReplaceAll(c.article, "'", "&#39;") + "</p>"}}}}) +
			`</body></html>`
		t.Run(c.lang, func(t *testing.T) {
			r := parse(t, html).Rendering()
			require.Equal(t, page.CountWords(c.article), r.ScriptWords)
			require.Zero(t, r.ScriptOnlyWords)
		})
	}
}

func ExamplePage_Rendering() {
	p, _ := page.Parse([]byte(`<div id="root"></div><script>window.__STATE__ = {"post":{"body":"<p>The harbour authority approved the new ferry timetable on Monday after a long consultation.</p>"},"messages":{"error":"Something went wrong, please try again later."}};</script>`), nil)
	r := p.Rendering()
	fmt.Println(r.ScriptOnlyWords, r.ScriptOnlySample)
	// Output: 14 The harbour authority approved the new ferry timetable on Monday after a long consultation.
}
