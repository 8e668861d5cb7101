package apidocs

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/geoscan/geoscan"
)

// generic parses a document into maps, slices and scalars; YAML numbers
// become float64 as they do in JSON.
func generic(t *testing.T, doc []byte, isJSON bool) any {
	t.Helper()
	var v any
	if isJSON {
		require.NoError(t, json.Unmarshal(doc, &v))
		return v
	}
	require.NoError(t, yaml.Unmarshal(doc, &v))
	b, err := json.Marshal(v)
	require.NoError(t, err, "the YAML has only string keys")
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// TestContractJSONIsTheYAML: the JSON served is the YAML file, field for
// field (operationIds as written: createScan, not CreateScan).
func TestContractJSONIsTheYAML(t *testing.T) {
	t.Parallel()
	js, err := JSONFromYAML(geoscan.OpenAPIYAML)
	require.NoError(t, err)
	require.True(t, json.Valid(js))
	require.Equal(t, generic(t, geoscan.OpenAPIYAML, false), generic(t, js, true))
	require.Contains(t, string(js), `"operationId":"createScan"`)
	require.NotContains(t, string(js), `"operationId":"CreateScan"`)
}

func TestJSONFromYAML(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, yaml, json string }{
		{"order kept", "b: 1\na: 2\nc: [x, 'y']\n", `{"b":1,"a":2,"c":["x","y"]}`},
		{"scalars", "i: 010\nm: -0o17\nh: 0x1F\nf: 2.50\ne: 1e3\nt: true\nn: null\nn2: ~\ns: '200'\nd: 2026-11-22\n", `{"i":10,"m":-15,"h":31,"f":2.5,"e":1000,"t":true,"n":null,"n2":null,"s":"200","d":"2026-11-22"}`},
		{"non-string keys become strings", "200: ok\ntrue: yes\n", `{"200":"ok","true":"yes"}`},
		{"html and unicode kept", "d: '<title> & “AI” — ok'\n", `{"d":"<title> & “AI” — ok"}`},
		{"anchors", "a: &x {k: 1}\nb: *x\n", `{"a":{"k":1},"b":{"k":1}}`},
		{"block text", "d: |\n  line one\n  line two\n", `{"d":"line one\nline two\n"}`},
		{"empty", "a: {}\nb: []\nc: ''\n", `{"a":{},"b":[],"c":""}`},
	} {
		got, err := JSONFromYAML([]byte(tc.yaml))
		require.NoError(t, err, tc.name)
		require.JSONEq(t, tc.json, string(got), tc.name)
		require.Equal(t, tc.json, string(got), "%s: compact, in document order", tc.name)
	}
	for name, bad := range map[string]string{
		"merge key":     "a: &x {k: 1}\nb:\n  <<: *x\n",
		"infinity":      "f: .inf\n",
		"not yaml":      "a: [\n",
		"two documents": "a: 1\n---\nb: 2\n",
		"complex key":   "? [a, b]\n: 1\n",
	} {
		_, err := JSONFromYAML([]byte(bad))
		require.Error(t, err, name)
	}
	// Absurd nesting is refused, not followed to the end of the stack.
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	_, err := JSONFromYAML([]byte("a: " + deep + "\n"))
	require.ErrorContains(t, err, "nests too deeply")
}
