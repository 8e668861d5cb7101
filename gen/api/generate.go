// Package api is generated from openapi.yaml: models, the Echo strict-server
// interface and the embedded specification. Do not edit; run make generate.
package api

//go:generate go tool oapi-codegen -config api.cfg.yaml ../../openapi.yaml
