package llm

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The errors of answers that cannot be read, whichever engine gave them.
var (
	errEmpty   = &CallError{Kind: ErrEmpty, Reason: "the engine's answer had no text"}
	errRefusal = &CallError{Kind: ErrRefused, Reason: "the engine declined to answer"}
	errNotJSON = &CallError{Kind: ErrMalformed, Reason: "the engine did not answer with the JSON that was asked for"}
	errSchema  = &CallError{Kind: ErrMalformed, Reason: "the engine's JSON did not match the schema that was asked for"}
)

// checkAnswer is the error an answer to req is, or nil for one that can be
// read. Session applies it to every engine's answers, cached ones
// included: an empty answer or a refusal says nothing about what the
// model knows, so it must not be read as "not known".
func checkAnswer(req Request, a Answer) error {
	switch {
	case strings.TrimSpace(a.Text) == "":
		return errEmpty
	case IsRefusal(a.Text):
		return errRefusal
	case req.Schema != nil && !json.Valid([]byte(a.Text)):
		return errNotJSON
	}
	return nil
}

// jsonInstruction asks for JSON in the prompt, for a model the engine
// cannot hold to a schema (json_object needs the word JSON in the
// messages, too).
func jsonInstruction(s *Schema) string {
	raw, err := json.Marshal(s.Schema)
	if err != nil {
		raw = []byte(`{"type":"object"}`)
	}
	return "\n\nAnswer with one JSON object and nothing else: no prose, no code fence. It must match this JSON Schema:\n" + string(raw)
}

// checkJSON reads the JSON a model wrote when asked in the prompt: one
// code fence around it is taken off (models add it against the
// instruction), and it must match the schema. The reasons are fixed
// sentences: a validator's message would quote the answer.
func checkJSON(s *Schema, text string) (string, error) {
	text = unfence(strings.TrimSpace(text))
	if !json.Valid([]byte(text)) {
		return "", errNotJSON
	}
	raw, err := json.Marshal(s.Schema)
	if err != nil {
		return "", errSchema
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return "", errSchema
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		return "", errSchema
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		return "", errSchema
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return "", errNotJSON
	}
	if err := sch.Validate(v); err != nil {
		return "", errSchema
	}
	return text, nil
}

// unfence takes off a Markdown code fence that wraps the whole text.
func unfence(text string) string {
	if !strings.HasPrefix(text, "```") || !strings.HasSuffix(text, "```") || len(text) < 6 {
		return text
	}
	body := strings.TrimSuffix(text[3:], "```")
	// The fence's info string ("json") ends at the first line break.
	if i := strings.IndexByte(body, '\n'); i >= 0 && !strings.ContainsAny(body[:i], "{[") {
		body = body[i+1:]
	}
	return strings.TrimSpace(body)
}
