// Package geoscan embeds the API contract, openapi.yaml, so the binary can
// serve it byte for byte at /api/v1/openapi.yaml.
package geoscan

import _ "embed"

// OpenAPIYAML is the hand-written contract the server and client are generated from.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte
