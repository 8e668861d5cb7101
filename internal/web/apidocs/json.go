package apidocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// JSONFromYAML converts the contract to JSON as it is written: every field
// of the YAML document, in the same order, and nothing else. Re-marshalling
// a parsed OpenAPI model instead would rename fields (kin-openapi's
// operationIds come out PascalCase) and drop or add others, so generators
// reading the JSON would see another contract than those reading the YAML.
func JSONFromYAML(doc []byte) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(doc))
	var root, more yaml.Node
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("parse the contract: %w", err)
	}
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) || root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, errors.New("the contract is not one YAML document")
	}
	var b bytes.Buffer
	if err := writeJSON(&b, root.Content[0], 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// maxDepth bounds the nesting (aliases can make a small file deep).
const maxDepth = 200

func writeJSON(b *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > maxDepth {
		return errors.New("the contract nests too deeply")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return writeJSON(b, n.Alias, depth+1)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return fmt.Errorf("line %d: only plain keys can be converted to JSON", k.Line)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeString(b, k.Value); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := writeJSON(b, v, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, item, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		return writeScalar(b, n)
	}
	return fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

func writeScalar(b *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
		return nil
	case "!!bool":
		v, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		b.WriteString(strconv.FormatBool(v))
		return nil
	case "!!int":
		// YAML 1.2: decimal unless 0x or 0o says otherwise (010 is ten).
		text, base := strings.ReplaceAll(n.Value, "_", ""), 10
		sign := ""
		if strings.HasPrefix(text, "-") || strings.HasPrefix(text, "+") {
			sign, text = text[:1], text[1:]
		}
		switch {
		case strings.HasPrefix(text, "0x"):
			text, base = text[2:], 16
		case strings.HasPrefix(text, "0o"):
			text, base = text[2:], 8
		}
		v, err := strconv.ParseInt(sign+text, base, 64)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		b.WriteString(strconv.FormatInt(v, 10))
		return nil
	case "!!float":
		v, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("line %d: %q is not a JSON number", n.Line, n.Value)
		}
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		return nil
	}
	// Strings, and everything else (timestamps, binary) as its text.
	return writeString(b, n.Value)
}

// writeString writes s as a JSON string, leaving <, > and & as they are
// (the descriptions quote HTML tags).
func writeString(b *bytes.Buffer, s string) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}
