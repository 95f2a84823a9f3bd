// Package rego embeds DeskBridge's default policies: the .rego modules in
// this folder and their _test.rego tests.
//
// The same files are the readable reference for security teams, who may
// replace them with their own directory or OPA bundle.
package rego

import "embed"

// FS holds every .rego file of the default policy set, tests included.
//
//go:embed *.rego
var FS embed.FS
