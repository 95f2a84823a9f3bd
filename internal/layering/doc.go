// Package layering holds no code, only the test that keeps DeskBridge's
// import arrows pointing one way:
//
//	cmd → engine → policy (deciding, pure) and sandbox (the only code that
//	changes the OS on a request's behalf); shared vocabulary (protocol,
//	config, internal/…) below them all.
//
// The test reads the imports of every non-test Go file in the module and
// fails when an arrow runs against the layering; see layering_test.go for
// the rules.
package layering
