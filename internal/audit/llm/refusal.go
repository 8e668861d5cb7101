package llm

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A refusal is an answer that declines the task, in one of the common
// languages of the web: an optional apology, then a sentence that says
// the model will not help with "that" and nothing more, then at most a
// short offer of other help. The rules are narrow on purpose. An answer
// that says the model knows nothing of a brand ("I don't have information
// about Acme") is a real answer, which package mentions reads as not
// known; so is any answer that goes on to say something ("I can't browse
// the web, but Acme is …"). A refusal the rules miss is read as an
// answer, as before.
var (
	refusalRE = regexp.MustCompile(`^(?:` + strings.Join([]string{
		// English
		`(?:(?:(?:i'm|i am) (?:very |really |so |truly )?sorry|sorry|i apologi[sz]e|apologies|unfortunately|(?:i'm|i am) afraid)(?:[,.!;:]? (?:but )?| ))?` +
			`(?:i(?: can't| cannot| can not| won't| will not| won't be able to| will not be able to|(?: am|'m) (?:unable|not able|not going) to) ` +
			`(?:help|assist|comply|fulfil+|do|provide|answer|respond to|support|complete|process|continue)` +
			`(?: you)?(?: with)?(?: (?:that|this|it)(?: request| question| task| one)?| (?:your|the|such a) (?:request|question|task))?` +
			`|i (?:must|have to|need to) (?:respectfully )?decline(?: (?:that|this|your|the) request)?` +
			`|(?:that's|that is|this is) not something i (?:can|am able to) (?:help|assist) (?:you )?with)`,
		// French
		`(?:(?:je suis (?:vraiment |sincèrement )?désolée?|désolée?|je m'excuse|malheureusement|pardon)(?:[,.!;:]? (?:mais )?| ))?` +
			`(?:(?:je ne peux pas|je ne pourrai pas|je ne suis pas en mesure de|il m'est impossible de) |je ne suis pas en mesure d'|il m'est impossible d')` +
			`(?:vous |te |t'|y )?(?:aider|répondre|satisfaire|donner suite|traiter|fournir|faire|accomplir|assister)` +
			`(?: (?:(?:avec|pour|à|sur|dans) )?(?:cela|ça|ceci|cette demande|cette requête|cette question|votre demande|votre requête|ta demande|ta requête))?`,
		// Spanish
		`(?:(?:lo siento(?: mucho)?|perdón|perdona|disculpa|disculpe|lamentablemente|desafortunadamente|lamento)(?:[,.!;:]? (?:pero )?| ))?` +
			`no (?:puedo|podré|me es posible|estoy en condiciones de|soy capaz de) ` +
			`(?:ayudar(?:te|le|les)?|asistir(?:te|le)?|cumplir|responder|atender|hacer(?: eso| esto)?|proporcionar(?: eso| esto)?|complacer(?:te|le)?)` +
			`(?: (?:(?:con|a|en) )?(?:eso|esto|ello|esa solicitud|esta solicitud|esa petición|esta petición|tu solicitud|su solicitud|tu petición|su petición|esa pregunta|esta pregunta|lo que (?:me )?pides))?`,
		// German
		`(?:(?:es tut mir (?:sehr |wirklich )?leid|tut mir leid|entschuldigung|entschuldige|leider)(?:[,.!;:]? (?:aber )?| ))?` +
			`(?:(?:ich kann|kann ich)(?: (?:ihnen|dir|euch))?(?: (?:dabei|damit|hierbei|hiermit|bei (?:dieser|deiner|ihrer) (?:anfrage|bitte|frage|aufgabe)))?(?: leider)? nicht ` +
			`(?:helfen|weiterhelfen|behilflich sein|nachkommen|erfüllen|beantworten|tun|machen|unterstützen)` +
			`|(?:ich kann|kann ich) (?:diese|deine|ihre|eine solche) (?:anfrage|bitte|frage|aufgabe) (?:leider )?nicht (?:erfüllen|nachkommen|beantworten|bearbeiten|ausführen)` +
			`|(?:das|dies) kann ich (?:leider )?nicht(?: tun| machen)?` +
			`|(?:ich bin|bin ich) (?:dazu )?(?:leider )?nicht in der lage(?:,? (?:ihnen|dir) (?:dabei|damit|hierbei) zu helfen)?)`,
		// Portuguese
		`(?:(?:desculpe|desculpa|sinto muito|lamento|infelizmente|perdão)(?:[,.!;:]? (?:mas )?| ))?` +
			`não (?:posso|poderei|consigo|sou capaz de|estou em condições de) (?:te |lhe )?` +
			`(?:ajudar|ajudá-lo|ajudá-la|auxiliar|atender|cumprir|responder|fazer isso|fornecer isso)` +
			`(?: (?:(?:com|a|em|com a|com o) )?(?:isso|isto|esse pedido|este pedido|essa solicitação|esta solicitação|essa pergunta|esta pergunta|sua solicitação|seu pedido|a sua solicitação|o seu pedido)| nisso| nisto)?`,
		// Italian
		`(?:(?:mi dispiace(?: molto)?|spiacente|purtroppo|mi scuso|scusa|scusami)(?:[,.!;:]? (?:ma )?| ))?` +
			`non (?:posso|potrò|sono in grado di|riesco a) ` +
			`(?:aiutar(?:ti|la|vi|e)|assister(?:ti|la|vi|e)|soddisfare|rispondere|fare|farlo|eseguire|esaudire)` +
			`(?: (?:(?:con|a|in|su) )?(?:questo|ciò|questa richiesta|questa domanda|la tua richiesta|tale richiesta))?`,
		// Russian
		`(?:(?:извините|простите|к сожалению|мне жаль|прошу прощения)(?:[,.!;:]? (?:но )?| ))?` +
			`я не (?:могу|смогу|в состоянии) (?:вам |тебе )?(?:с этим )?(?:помочь|выполнить|ответить|сделать это|сделать)` +
			`(?: (?:с этим(?: запросом| вопросом)?|в этом|на этот (?:вопрос|запрос)|этот запрос|эту просьбу|с этой просьбой|с вашим запросом))?`,
		// Chinese
		`(?:(?:很抱歉|非常抱歉|抱歉|对不起|不好意思)[,.!;:]? ?(?:但是?[,]? ?)?)?` +
			`我(?:无法|不能|没办法|没有办法)(?:帮助|帮|协助|满足|回答|提供|完成|处理|执行)(?:你|您)?(?:处理|完成|回答)?(?:这个|此|该|这一|这样的)?(?:请求|要求|问题|任务)?`,
		// Japanese
		`(?:(?:申し訳ありませんが|申し訳ございませんが|すみませんが|ごめんなさい)[,]? ?)?` +
			`(?:その|この)?(?:ご依頼|ご要望|リクエスト|ご質問|質問)?(?:には|に)?(?:お応え|お答え|対応|協力|お手伝い)(?:することは|は)?でき(?:ません|かねます)`,
	}, "|") + `)(?:[.!]+|$)`)

	// offerRE marks what may follow a refusal: an offer of other help or a
	// pointer to the model's rules. Anything else after it (a fact, a
	// name) makes the answer a real one.
	offerRE = regexp.MustCompile(strings.Join([]string{
		`anything else|something else|other questions?|another question|feel free|let me know|happy to help|glad to help|can i help|i can help|i'd be happy|other topic|guidelines|polic(?:y|ies)`,
		`autre chose|autres? questions?|n'hésitez pas|je serais (?:ravie?|heureux|heureuse)|je peux vous aider|autre sujet|directives|règles`,
		`otra cosa|algo más|otras? preguntas?|no dudes|no dude|con gusto|encantad[oa]|puedo ayudarte|otro tema|políticas|directrices`,
		`etwas anderes|anderen? fragen?|weitere fragen|sonst noch|gerne|anderes thema|richtlinien`,
		`outra coisa|algo mais|outras? perguntas?|fique à vontade|posso ajudar|ficarei feliz|outro assunto|diretrizes|políticas`,
		`qualcos'altro|qualcosa d'altro|altre? domand[ae]|non esitare|sarò felice|posso aiutarti|altro argomento|linee guida`,
		`что-то другое|что-нибудь другое|другой вопрос|другие вопросы|чем-то другим|чем-нибудь другим|обращайтесь|с радостью|могу помочь|правил`,
		`其他|别的|随时|他に|ほかに|お気軽に`,
	}, "|"))

	// normalizer evens out how a refusal may be typed: apostrophes, CJK
	// punctuation, Markdown emphasis.
	normalizer = strings.NewReplacer(
		"’", "'", "‘", "'", "ʼ", "'", "`", "'",
		"，", ",", "。", ".", "！", "!", "？", "?", "、", ",", "：", ":",
		"*", "", "_", "",
	)
)

// The most a refusal and what may follow it are, in runes: refusals are
// short, and a long answer that opens with one is read as an answer.
const (
	maxRefusal     = 300
	maxRefusalRest = 160
)

// IsRefusal reports whether an answer's text declines the task (see
// refusalRE), as opposed to answering it, however briefly or negatively.
func IsRefusal(text string) bool {
	if utf8.RuneCountInString(text) > maxRefusal {
		return false
	}
	t := strings.Join(strings.Fields(normalizer.Replace(strings.ToLower(text))), " ")
	loc := refusalRE.FindStringIndex(t)
	if loc == nil {
		return false
	}
	rest := strings.TrimSpace(t[loc[1]:])
	if rest == "" {
		return true
	}
	return utf8.RuneCountInString(rest) <= maxRefusalRest && offerRE.MatchString(rest)
}
