package report

// The validator's words in the languages a summary may be written in. A
// summary is read as claims in its report's language and in English (a
// summary in German still names checks by English ids, and may borrow
// English words): an English summary is read with the English words
// alone, so another language's words ("once", "dos", "a") never change
// how an English text is read. The lists are folded as fold folds text:
// lower case, no diacritics.

import (
	"regexp"
	"strings"

	"github.com/geoscan/geoscan/internal/i18n"
)

// lexicon is what the validator reads a text with: the English words and
// patterns of summary_validate.go, and a language's on top of them.
type lexicon struct {
	lang string
	// ringWords name a ring ("search", "visibility", "trust") or the site
	// as a whole ("overall") beyond the English words of subjectAt.
	ringWords map[string]subject
	// numberWords are numbers written as words; of precede the whole a
	// count is out of ("of", "von"); the are articles between them.
	numberWords map[string]int
	of, the     map[string]bool
	countNouns  map[string]string
	// critical marks an issue as a fired gate ("critical issue").
	critical map[string]bool
	// status are the words that state a check's status, beyond the
	// English stems statusWord knows.
	status map[string]string
	// preNeg deny a status word after them; postNeg one before them;
	// partly make it a warn.
	preNeg, postNeg, partly map[string]bool
	// gradeWords precede a letter grade; articles may stand between
	// ("earns an A"); gradeLinks join them ("the grade is B").
	gradeWords, articles, gradeLinks map[string]bool
	negWords, posWords, negators     map[string]bool
	clauseBreaks, quantifiers        map[string]bool
	presenceWords, listWords         map[string]bool
	keywordStop                      map[string]bool
	// recommend are the stems of "recommend"; us the words of a page
	// speaking for itself; praise the words that praise a brand.
	recommend       []string
	us, praise      map[string]bool
	instructionREs  []*regexp.Regexp
	promoRE         *regexp.Regexp
	capRE, gateRE   *regexp.Regexp
	looseRE, denyRE *regexp.Regexp
	negatedRE       *regexp.Regexp
	bestRE, worstRE *regexp.Regexp
	directiveRE     *regexp.Regexp
	noWorkRE        *regexp.Regexp
	goodNewsRE      *regexp.Regexp
}

// lexiconFor is the lexicon of a language; English for any other.
func lexiconFor(lang string) *lexicon {
	if lx, ok := lexicons[lang]; ok {
		return lx
	}
	return lexicons[i18n.English]
}

// more is what one language adds to the English words and patterns.
type more struct {
	ringWords                                 map[string]subject
	numberWords                               map[string]int
	of, the, countNouns, critical             string
	status                                    map[string]string
	preNeg, postNeg, partly                   string
	gradeWords, articles, gradeLinks          string
	negWords, posWords, negators              string
	clauseBreaks, quantifiers, presence, list string
	keywordStop, recommend, us, praise        string
	instructions                              []string
	promo, caps, gates, loose, deny, negated  string
	best, worst, directive, noWork, goodNews  string
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

func union(a map[string]bool, words string) map[string]bool {
	m := set(words)
	for w := range a {
		m[w] = true
	}
	return m
}

// either is a pattern that matches what the English one or the
// language's matches; the English one alone when the language adds none.
func either(en *regexp.Regexp, lang string) *regexp.Regexp {
	if lang == "" {
		return en
	}
	return regexp.MustCompile(`(?:` + en.String() + `)|(?:` + lang + `)`)
}

var englishLexicon = &lexicon{
	lang: i18n.English, ringWords: map[string]subject{}, numberWords: numberWords, of: set("of"), the: set("the"),
	countNouns: map[string]string{}, critical: set("critical"), status: map[string]string{},
	preNeg: set("not never longer"), postNeg: map[string]bool{}, partly: set("partly partially half"),
	gradeWords: gradeWords, articles: set("a an"), gradeLinks: set("of is : the de"),
	negWords: negWords, posWords: posWords, negators: negators, clauseBreaks: clauseBreaks, quantifiers: quantifiers,
	presenceWords: presenceWords, listWords: listWords, keywordStop: keywordStop,
	recommend: []string{"recommend"}, us: set("us our them"), praise: set("best leading finest favourite favorite"),
	instructionREs: []*regexp.Regexp{ignoreRE, roleRE, addressRE, modalRE, ctaRE, visitRE, vocativeRE},
	promoRE:        promoRE, capRE: capRE, gateRE: gateRE, looseRE: looseRE, denyRE: denyRE, negatedRE: negatedRE,
	bestRE: bestRE, worstRE: worstRE, directiveRE: directiveRE, noWorkRE: noWorkRE, goodNewsRE: goodNewsRE,
}

func (m more) lexicon(lang string) *lexicon {
	en := englishLexicon
	lx := &lexicon{
		lang: lang, ringWords: m.ringWords, numberWords: map[string]int{}, of: union(en.of, m.of), the: union(en.the, m.the),
		countNouns: map[string]string{}, critical: union(en.critical, m.critical), status: m.status,
		preNeg: union(en.preNeg, m.preNeg), postNeg: set(m.postNeg), partly: union(en.partly, m.partly),
		gradeWords: union(en.gradeWords, m.gradeWords), articles: union(en.articles, m.articles), gradeLinks: union(en.gradeLinks, m.gradeLinks),
		negWords: union(en.negWords, m.negWords), posWords: union(en.posWords, m.posWords), negators: union(en.negators, m.negators),
		clauseBreaks: union(en.clauseBreaks, m.clauseBreaks), quantifiers: union(en.quantifiers, m.quantifiers),
		presenceWords: union(en.presenceWords, m.presence), listWords: union(en.listWords, m.list),
		keywordStop: union(en.keywordStop, m.keywordStop),
		recommend:   append(append([]string{}, en.recommend...), strings.Fields(m.recommend)...),
		us:          union(en.us, m.us), praise: union(en.praise, m.praise),
		promoRE: either(en.promoRE, m.promo), capRE: either(en.capRE, m.caps), gateRE: either(en.gateRE, m.gates),
		looseRE: either(en.looseRE, m.loose), denyRE: either(en.denyRE, m.deny), negatedRE: either(en.negatedRE, m.negated),
		bestRE: either(en.bestRE, m.best), worstRE: either(en.worstRE, m.worst), directiveRE: either(en.directiveRE, m.directive),
		noWorkRE: either(en.noWorkRE, m.noWork), goodNewsRE: either(en.goodNewsRE, m.goodNews),
	}
	for w, n := range en.numberWords {
		lx.numberWords[w] = n
	}
	for w, n := range m.numberWords {
		lx.numberWords[w] = n
	}
	for _, n := range strings.Fields(m.countNouns) {
		noun, kind, _ := strings.Cut(n, "=")
		lx.countNouns[noun] = kind
	}
	lx.instructionREs = append([]*regexp.Regexp{}, en.instructionREs...)
	for _, p := range m.instructions {
		lx.instructionREs = append(lx.instructionREs, regexp.MustCompile(p))
	}
	return lx
}

// countNoun is what a word of a count counts ("checks", "issues" …), or "".
func (lx *lexicon) countNoun(w string) string {
	if c, ok := countNouns[singular(w)]; ok {
		return c
	}
	return lx.countNouns[w]
}

// statusWord is the status a word states, in English or the language.
func (lx *lexicon) statusWord(w string) string {
	if st := statusWord(w); st != "" {
		return st
	}
	return lx.status[w]
}

// statusWords lists words by the status they state: "pass=bestanden …".
func statusWords(spec string) map[string]string {
	m := map[string]string{}
	for _, f := range strings.Fields(spec) {
		w, st, _ := strings.Cut(f, "=")
		m[w] = st
	}
	return m
}

//nolint:misspell // German, French and Spanish words
var lexicons = map[string]*lexicon{
	i18n.English: englishLexicon,
	"de": more{
		ringWords: map[string]subject{
			"suche": "search", "sichtbarkeit": "visibility", "ki-sichtbarkeit": "visibility", "vertrauen": "trust", "ki-vertrauen": "trust",
			"gesamt": overall, "insgesamt": overall, "gesamtwert": overall, "gesamtpunktzahl": overall, "gesamtnote": overall,
			"gesamtergebnis": overall, "webseite": overall,
		},
		numberWords: map[string]int{
			"null": 0, "kein": 0, "keine": 0, "keiner": 0, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7,
			"acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12,
		},
		of: "von", the: "der den die",
		countNouns: "prufung=checks prufungen=checks check=checks checks=checks test=checks tests=checks " +
			"problem=issues probleme=issues fehler=issues befund=issues befunde=issues mangel=issues " +
			"warnung=warn warnungen=warn ring=rings ringe=rings bereich=rings bereiche=rings saule=pillars saulen=pillars " +
			"gate=gates gates=gates korrektur=fixes korrekturen=fixes maßnahme=fixes maßnahmen=fixes massnahme=fixes massnahmen=fixes " +
			"schritt=fixes schritte=fixes",
		critical: "kritische kritisches kritischen kritischer",
		status: statusWords("bestanden=pass besteht=pass bestehen=pass erfullt=pass erfullen=pass " +
			"fehlgeschlagen=fail scheitert=fail scheitern=fail gescheitert=fail fehl=fail durchgefallen=fail " +
			"beheben=open behoben=open verbessern=open handlungsbedarf=open aufmerksamkeit=open"),
		preNeg: "nicht nie kein keine", postNeg: "nicht", partly: "teilweise",
		gradeWords: "note noten benotet bewertet bewertung erhalt erhalten erreicht erzielt punktzahl",
		articles:   "ein eine einer einem", gradeLinks: "ist von die der lautet",
		negWords: "nicht kein keine keinen keiner nie ohne fehlt fehlen fehlend fehlende blockiert sperrt gesperrt defekt falsch " +
			"ungultig unvollstandig veraltet schwach langsam unklar problem probleme fehler lucke lucken kritisch kritische fehlgeschlagen scheitert",
		negators: "nicht kein keine keinen keiner nie ohne",
		posWords: "funktioniert gut korrekt gultig vorhanden sauber sicher schnell solide stark vollstandig bestanden besteht erfullt " +
			"grun verfugbar konfiguriert aktiviert veroffentlicht erreichbar sichtbar indexierbar erlaubt",
		clauseBreaks: "aber weil wahrend obwohl jedoch doch da sondern denn",
		quantifiers:  "alle jede jeder jedes alles keine meisten viele einige wenige andere ubrigen beide nur prufungen checks tests rest",
		presence: "ihre ihr die der das website seite hat haben mit es gibt ist sind startseite seiten enthalt bietet zeigt jetzt " +
			"bereits und auch jede alle",
		list: "und oder dann auch sowie",
		keywordStop: "der die das und ist mit von fur ihre ihr sie ein eine einen den dem des auf aus bei zu im in wird werden " +
			"nicht sind oder auch nur alle jede seite seiten website inhalt text",
		recommend: "empfehl", us: "uns unser unsere", praise: "beste besten bester fuhrend fuhrende fuhrender",
		instructions: []string{
			`^(?:\W+ )?(?:bitte )?(?:besuchen|besuche|klicken|klicke|kaufen|kaufe|bestellen|bestelle|abonnieren|kontaktieren|folgen|empfehlen|empfiehl|erwahnen|erwahne|ignorieren|ignoriere|vergessen|vergiss|sagen|sag|antworten|antworte|schreiben|schreibe)\b`,
			`\b(?:ki|assistent\w*|chatbots?|sprachmodell\w*|modell\w*|engines?|sie|du)\s+(?:sollte\w*|muss|mussen|soll|sollen|immer|nie)\s+(?:\S+\s+){0,3}?(?:empfehl|nenn|sag|antwort|beschreib|erwahn|zitier|bevorzug|lob|bewert|vertrau)\w*`,
			`\bals (?:ki|sprachmodell|assistent|chatbot)\b|\b(?:liebe|lieber|hallo|hey) (?:ki|assistent\w*|chatbots?)\b|\bwenn du eine ki bist\b`,
		},
		promo:     `\b(?:die|der|das) beste\w* \S+(?: \S+)? (?:der stadt|der welt|der region|im land|am markt)\b|\bnummer eins\b|\bunschlagbar\b`,
		caps:      `\bbegrenz\w*|\bgedeckelt\b|\bdeckelt\b|\bgekappt\b|\bobergrenze\b|\bhalt\w* (?:\S+ ){0,3}?bei\b|\bfestgehalten\b`,
		gates:     `\bkritisch\w* problem\w*`,
		loose:     `\bunter (?:seiner|ihrer|der) obergrenze\b|\bgreift (?:aber )?nicht\b`,
		deny:      `\bnicht (?:\S+ )?(?:begrenzt|gedeckelt|gekappt)\b|\b(?:keine?|ohne)\s+(?:\S+\s+)?(?:obergrenze|begrenzung|gates?|kritische\w* probleme?)\b|\bnichts kritisches\b`,
		negated:   `(?:\bnicht|\bkein\w*|\bnie|\bohne|\bweit entfernt von)(?:\s+\S+){0,2}\s*$`,
		best:      `\bstarkste\w*|\bam (?:besten|hochsten|starksten)\b|\bhochste\w* (?:punktzahl|wert)\b`,
		worst:     `\bschwachste\w*|\bam (?:schwachsten|niedrigsten|schlechtesten)\b|\bniedrigste\w* (?:punktzahl|wert)\b|\bam meisten zu tun\b`,
		directive: `\b(?:beheben|behebe|behebt|verbessern|erganzen|hinzufugen|einrichten|veroffentlichen|muss|mussen|sollte|sollten|zuerst|priorit\w*|sicherstellen|angehen)\b`,
		noWork:    `\bkein\w* handlungsbedarf\b|\bnichts zu (?:beheben|tun|verbessern)\b|\bmuss nicht\b`,
		goodNews:  `\bgute nachricht\w*|\berfreulich\w*`,
	}.lexicon("de"),
	"fr": more{
		ringWords: map[string]subject{
			"recherche": "search", "visibilite": "visibility", "confiance": "trust",
			"globale": overall, "globalement": overall, "ensemble": overall, "general": overall, "generale": overall,
		},
		numberWords: map[string]int{
			"aucun": 0, "aucune": 0, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8, "neuf": 9,
			"dix": 10, "onze": 11, "douze": 12,
		},
		of: "sur des", the: "les",
		countNouns: "controle=checks controles=checks verification=checks verifications=checks test=checks tests=checks " +
			"probleme=issues problemes=issues defaut=issues defauts=issues anomalie=issues anomalies=issues " +
			"avertissement=warn avertissements=warn echec=fail echecs=fail anneau=rings anneaux=rings domaine=rings domaines=rings " +
			"pilier=pillars piliers=pillars gate=gates gates=gates correction=fixes corrections=fixes action=fixes actions=fixes " +
			"etape=fixes etapes=fixes",
		critical: "critique critiques",
		status: statusWords("reussi=pass reussie=pass reussis=pass reussies=pass reussit=pass reussissent=pass valide=pass validee=pass " +
			"valides=pass validees=pass echoue=fail echouent=fail echec=fail echecs=fail echoues=fail echouee=fail echouees=fail " +
			"avertissement=warn avertissements=warn avertit=warn corriger=open ameliorer=open attention=open travail=open"),
		preNeg: "ne pas jamais aucun aucune", postNeg: "pas jamais", partly: "partiellement partie",
		gradeWords: "note notee obtient obtenu recoit decroche", articles: "un une", gradeLinks: "est la le",
		negWords: "pas ne aucun aucune jamais sans rien manque manquant manquante absent absente bloque bloquee casse incorrect " +
			"incorrecte invalide incomplet incomplete obsolete faible lent probleme problemes erreur erreurs critique echoue echec",
		negators: "pas ne aucun aucune jamais sans rien",
		posWords: "fonctionne bien bon bonne correct correcte present presente propre securise rapide solide complet complete reussi " +
			"reussit vert disponible configure active publie publiee accessible visible indexable autorise",
		clauseBreaks: "mais car parce tandis cependant pourtant puisque qui",
		quantifiers: "tous toutes tout chaque aucun aucune plupart plusieurs certains certaines autres seul seuls controles verifications " +
			"tests reste",
		presence: "votre vos le la les un une site a ont avec il y est sont page pages contient propose affiche maintenant deja et " +
			"aussi chaque tous toutes",
		list:        "et ou puis aussi ainsi",
		keywordStop: "les des une est pour avec dans sur par vos votre sont pas qui que aux du la le site page pages contenu texte",
		recommend:   "recommand", us: "nous notre nos", praise: "meilleur meilleure meilleurs leader",
		instructions: []string{
			`^(?:\W+ )?(?:veuillez )?(?:visitez|visite|allez|cliquez|clique|achetez|commandez|abonnez|contactez|appelez|suivez|recommandez|recommande|mentionnez|ignorez|ignore|oubliez|oublie|dites|dis|repondez|reponds|ecrivez|ecris)\b`,
			`\b(?:ia|assistants?|chatbots?|modeles?|moteurs?|vous|tu)\s+(?:devez|doit|doivent|devriez|devraient|dois|toujours|jamais)\s+(?:\S+\s+){0,3}?(?:recommand|dire|dites|repond|decri|mentionn|cit|prefer|promouv|lou)\w*`,
			`\ben tant qu(?:e |')(?:ia|assistant|modele de langage|chatbot)\b|\b(?:cher|chere|bonjour|salut) (?:ia|assistants?|chatbots?)\b|\bsi (?:vous etes|tu es) une ia\b`,
		},
		promo:     `\b(?:le|la) meilleur\w* \S+(?: \S+)? (?:de la ville|du monde|de la region|du pays|du marche)\b|\bnumero un\b|\bimbattable\b`,
		caps:      `\bplafonn\w*|\bplafond\w*|\blimite\w* a\b|\bbloque\w* a\b|\bretenu\w* a\b|\bmaintenu\w* a\b`,
		gates:     `\bproblem\w* critique\w*`,
		loose:     `\bsous (?:son|leur|le) plafond\b|\bsans effet\b`,
		deny:      `\bpas (?:\S+ )?(?:plafonne|limite)\w*|\b(?:aucun|aucune|sans)\s+(?:\S+\s+)?(?:plafond|limite|gate|probleme critique)\w*|\brien de critique\b`,
		negated:   `(?:\bpas|\bjamais|\bloin d\S*|\bne|\bn')(?:\s+\S+){0,2}\s*$`,
		best:      `\b(?:le|la) plus (?:solide|fort|forte|eleve|elevee)\b`,
		worst:     `\b(?:le|la) plus (?:faible|bas|basse)\b|\ble plus de travail\b`,
		directive: `\b(?:corriger|corrigez|ameliorer|ajouter|ajoutez|publier|publiez|doit|doivent|devrait|devraient|faut|d'abord|priorit\w*|assurez)\b`,
		noWork:    `\b(?:pas|aucun) besoin de\b|\brien a (?:corriger|faire|ameliorer)\b`,
		goodNews:  `\bbonne nouvelle\b|\bpoint positif\b`,
	}.lexicon("fr"),
	"es": more{
		ringWords: map[string]subject{
			"busqueda": "search", "visibilidad": "visibility", "confianza": "trust",
			"general": overall, "sitio": overall,
		},
		numberWords: map[string]int{
			"cero": 0, "ningun": 0, "ninguna": 0, "ninguno": 0, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
			"siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12,
		},
		of: "de", the: "las los",
		countNouns: "comprobacion=checks comprobaciones=checks verificacion=checks verificaciones=checks prueba=checks pruebas=checks " +
			"control=checks controles=checks problema=issues problemas=issues incidencia=issues incidencias=issues " +
			"fallo=fail fallos=fail advertencia=warn advertencias=warn aviso=warn avisos=warn errores=error " +
			"anillo=rings anillos=rings area=rings areas=rings pilar=pillars pilares=pillars gate=gates gates=gates " +
			"correccion=fixes correcciones=fixes accion=fixes acciones=fixes paso=fixes pasos=fixes",
		critical: "critico criticos critica criticas",
		status: statusWords("aprueba=pass aprueban=pass aprobada=pass aprobadas=pass aprobado=pass aprobados=pass supera=pass " +
			"superan=pass superada=pass superadas=pass pasa=pass pasan=pass falla=fail fallan=fail fallida=fail fallidas=fail " +
			"fallo=fail fallos=fail suspende=fail suspenden=fail advertencia=warn advertencias=warn aviso=warn advierte=warn " +
			"corregir=open mejorar=open atencion=open trabajo=open"),
		preNeg: "no nunca", postNeg: "", partly: "parcialmente parte",
		gradeWords: "nota calificacion calificado calificada obtiene recibe consigue puntuacion", articles: "un una", gradeLinks: "es la el",
		negWords: "no ningun ninguna ninguno nunca sin nada falta faltan ausente bloqueado bloqueada bloquea roto incorrecto incorrecta " +
			"invalido incompleto obsoleto debil lento problema problemas error errores critico falla fallan",
		negators: "no ningun ninguna ninguno nunca sin nada",
		posWords: "funciona bien bueno buena correcto correcta valido valida presente limpio seguro rapido solido completo completa " +
			"supera aprobado verde disponible configurado activado publicado publicada accesible visible indexable permitido",
		clauseBreaks: "pero porque mientras aunque embargo",
		quantifiers: "todas todos todo cada ninguna ninguno mayoria varias varios algunas algunos otras otros solo comprobaciones " +
			"pruebas resto",
		presence: "su sus el la los las un una sitio tiene tienen con hay es son pagina paginas incluye ofrece muestra ahora ya y " +
			"tambien cada todas todos",
		list:        "y o luego tambien asi como",
		keywordStop: "los las una con por para del sus su que son esta sitio pagina paginas contenido texto web",
		recommend:   "recomend recomiend", us: "nosotros nuestro nuestra nuestros nuestras", praise: "mejor mejores lider",
		instructions: []string{
			`^(?:\W+ )?(?:por favor )?(?:visite|visita|vaya|ve|haga clic|haz clic|compre|compra|pida|suscribete|contacte|contacta|llame|llama|siga|sigue|recomiende|recomienda|mencione|menciona|ignore|ignora|olvide|olvida|diga|di|responda|responde|escriba|escribe)\b`,
			`\b(?:ia|asistentes?|chatbots?|modelos?|motores?|usted|tu)\s+(?:debe|deben|deberia|deberian|debes|siempre|nunca)\s+(?:\S+\s+){0,3}?(?:recomend|decir|diga|respond|describ|mencion|cit|prefer|promocion|elogi)\w*`,
			`\bcomo (?:ia|asistente|modelo de lenguaje|chatbot)\b|\b(?:querid[oa]|hola|oye) (?:ia|asistentes?|chatbots?)\b|\bsi eres una ia\b`,
		},
		promo:     `\b(?:el|la) mejor \S+(?: \S+)? (?:de la ciudad|del mundo|de la region|del pais|del mercado)\b|\bnumero uno\b|\bimbatible\b`,
		caps:      `\blimitad\w* a\b|\blimita\b|\btope\b|\btopad\w*|\bmantiene\w* (?:\S+ ){0,3}?en\b|\bretenid\w*|\bfrena\w*`,
		gates:     `\bproblem\w* critic\w*`,
		loose:     `\bpor debajo de (?:su|el) tope\b|\bno limita\b`,
		deny:      `\bno (?:esta |estan )?(?:\S+ )?(?:limitad|topad)\w*|\b(?:ningun|ninguna|sin)\s+(?:\S+\s+)?(?:tope|limite|gate|problemas? critico)\w*|\bnada critico\b`,
		negated:   `(?:\bno|\bnunca|\blejos de|\bsin)(?:\s+\S+){0,2}\s*$`,
		best:      `\b(?:el|la) (?:area |anillo )?mas (?:fuerte|solid[oa]|alt[oa])\b`,
		worst:     `\b(?:el|la) (?:area |anillo )?mas (?:debil|baj[oa])\b|\bmas trabajo necesita\b|\bque mas trabajo\b`,
		directive: `\b(?:corregir|corrija|corrige|mejorar|anadir|agregar|publicar|debe|deben|deberia|hay que|primero|priorit\w*|asegur\w*)\b`,
		noWork:    `\bno (?:hace falta|es necesario|necesita)\b|\bnada que (?:corregir|hacer|mejorar)\b`,
		goodNews:  `\bbuena noticia\b|\blo positivo\b`,
	}.lexicon("es"),
}
