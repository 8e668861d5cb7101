// Package client is the Go client of the GeoScan API, generated from
// openapi.yaml. Do not edit; run make generate.
package client

//go:generate go tool oapi-codegen -config client.cfg.yaml ../../openapi.yaml
