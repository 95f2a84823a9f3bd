package policy

import (
	"context"
	"io"
	"testing"
)

// BenchmarkStartParts splits a marked start's New (the compile a host
// pays per start once its set was checked) into its parts: parsing the
// modules, compiling them without the check-only stages, preparing the
// decision query and building the masker.
func BenchmarkStartParts(b *testing.B) {
	src, ctx, caps := Embedded(), context.Background(), Capabilities()
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseModules(src, compileMode{skipChecks: true}.parserOptions(caps)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := compile(ctx, src, benchConfig, io.Discard, compileMode{skipChecks: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	c, err := compile(ctx, src, benchConfig, io.Discard, compileMode{skipChecks: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("prepare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.prepare(Query); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("masker", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := newMasker(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
