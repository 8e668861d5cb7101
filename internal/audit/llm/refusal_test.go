package llm_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
)

func TestIsRefusal(t *testing.T) {
	t.Parallel()
	refusals := map[string]string{
		"en bare":            "I can't help with that.",
		"en apology":         "I'm sorry, but I cannot assist with that request.",
		"en curly":           "I’m sorry, but I can’t comply with this request.",
		"en unable":          "Sorry, I'm unable to help with that.",
		"en offer":           "I can't help with that. If you have any other questions, feel free to ask!",
		"en decline":         "I must respectfully decline this request.",
		"en won't be able":   "Unfortunately, I won't be able to help you with that.",
		"en emphasis":        "**I can't assist with that.**",
		"fr":                 "Je ne peux pas vous aider avec cela.",
		"fr apology":         "Désolé, mais je ne peux pas répondre à cette demande.",
		"fr elided":          "Je suis désolée, je ne suis pas en mesure d'y répondre.",
		"es":                 "Lo siento, no puedo ayudar con eso.",
		"es request":         "Lo siento, pero no puedo cumplir con esa solicitud.",
		"de":                 "Ich kann dabei nicht helfen.",
		"de apology":         "Es tut mir leid, aber ich kann Ihnen dabei nicht helfen.",
		"de inverted":        "Leider kann ich dabei nicht helfen.",
		"de request":         "Ich kann diese Anfrage nicht erfüllen.",
		"pt":                 "Desculpe, mas não posso ajudar com isso.",
		"it":                 "Mi dispiace, ma non posso aiutarti con questa richiesta.",
		"ru":                 "Извините, но я не могу помочь с этим.",
		"zh":                 "抱歉，我无法帮助你处理这个请求。",
		"ja":                 "申し訳ありませんが、そのリクエストにはお応えできません。",
		"de offer":           "Das kann ich leider nicht tun. Kann ich dir sonst noch helfen?",
		"es offer":           "No puedo ayudarte con eso. ¿Hay algo más en lo que pueda ayudarte?",
		"fr offer":           "Je ne peux pas faire cela. N'hésitez pas si vous avez une autre question.",
		"en guidelines":      "I'm sorry, but I can't help with that. It goes against my guidelines.",
		"whitespace padding": "\n  I can't help with that.  \n",
	}
	for name, text := range refusals {
		require.True(t, llm.IsRefusal(text), "%s: %q", name, text)
	}

	answers := map[string]string{
		"no information":       "I don't have information about Acme Widgets.",
		"no information sorry": "I'm sorry, but I don't have any information about Acme Widgets.",
		"not familiar":         "I'm not familiar with Acme Widgets.",
		"fr no information":    "Je n'ai pas d'informations sur Acme Widgets.",
		"es no information":    "Lo siento, no tengo información sobre Acme Widgets.",
		"de no information":    "Ich habe keine Informationen über Acme Widgets.",
		"zh no information":    "我无法提供关于Acme Widgets的信息。",
		"ru cannot find":       "Я не могу найти информацию о компании Acme Widgets.",
		"can't browse":         "I can't browse the web, but Acme Widgets is a bakery in Leeds.",
		"can't say for sure":   "I can't say for sure, but Acme Widgets appears to sell bread.",
		"can't provide about":  "I'm sorry, but I can't provide information about Acme Widgets.",
		"help with a detail":   "I can't help with that specific detail, but Acme Widgets was founded in 1990.",
		"comma goes on":        "I can't help with that, but their website lists three shops.",
		"fact after refusal":   "I can't help with that. Acme Widgets is a bakery in Leeds known for sourdough.",
		"inside a long answer": "Acme Widgets is a bakery in Leeds. When asked about prices I can't help with that, since they change often; the shop lists them.",
		"positive":             "I can help with that: Acme Widgets is a bakery in Leeds.",
		"able":                 "I am able to help with that.",
		"long refusal opening": "I can't help with that. " + longTail,
		"empty":                "",
		"json":                 `{"category":"bakery"}`,
	}
	for name, text := range answers {
		require.False(t, llm.IsRefusal(text), "%s: %q", name, text)
	}
}

// longTail makes an answer that opens with a refusal too long to be one.
const longTail = "Acme Widgets, however, is well known in Leeds: it was founded in 1990, " +
	"runs three shops in the city centre, bakes sourdough every morning and sells cakes, " +
	"pastries and coffee; its website lists opening hours, prices and a phone number for orders."
