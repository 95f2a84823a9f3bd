package policy

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// parserOnlyFields are the unexported fields the codec cannot write
// (astcodec.go): read by the parser's own Rego v1 checks only.
// sortGuard is a set's or object's guard of its lazily sorted keys,
// which encoding sorts.
var parserOnlyFields = map[string]bool{"generatedBody": true, "generatedValue": true, "keywords": true, "sortGuard": true}

// astDiff lists where a and b differ, field by field, following pointers
// (each pair once), skipping parserOnlyFields.
func astDiff(a, b reflect.Value, path string, seen map[[2]uintptr]bool, out *[]string) {
	if len(*out) > 20 {
		return
	}
	if a.IsValid() != b.IsValid() {
		*out = append(*out, path+": one is missing")
		return
	}
	if !a.IsValid() {
		return
	}
	if a.Type() != b.Type() {
		*out = append(*out, fmt.Sprintf("%s: %s against %s", path, a.Type(), b.Type()))
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			*out = append(*out, path+": nil against not nil")
			return
		}
		if a.IsNil() {
			return
		}
		key := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[key] {
			return
		}
		seen[key] = true
		astDiff(a.Elem(), b.Elem(), path, seen, out)
	case reflect.Interface:
		if a.IsNil() != b.IsNil() {
			*out = append(*out, path+": nil against not nil")
			return
		}
		if !a.IsNil() {
			astDiff(a.Elem(), b.Elem(), path, seen, out)
		}
	case reflect.Struct:
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			if parserOnlyFields[name] {
				continue
			}
			astDiff(a.Field(i), b.Field(i), path+"."+name, seen, out)
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			*out = append(*out, fmt.Sprintf("%s: length %d (nil %v) against %d (nil %v)", path, a.Len(), a.IsNil(), b.Len(), b.IsNil()))
			return
		}
		for i := range a.Len() {
			astDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen, out)
		}
	case reflect.Array:
		for i := range a.Len() {
			astDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen, out)
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			*out = append(*out, path+": maps of different sizes")
			return
		}
		for _, k := range a.MapKeys() {
			astDiff(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k), seen, out)
		}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if a.IsNil() != b.IsNil() {
			*out = append(*out, path+": nil against not nil")
		}
	default:
		if !reflect.DeepEqual(reflectComparable(a), reflectComparable(b)) {
			*out = append(*out, fmt.Sprintf("%s: %v against %v", path, reflectComparable(a), reflectComparable(b)))
		}
	}
}

// reflectComparable returns v's value as an any, unexported or not.
func reflectComparable(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	}
	return v.Kind().String() + " (not compared)"
}

// codecSets are the policy sets the codec is checked on: the embedded
// set with its tests, and every policy of testdata/broken-policies that
// parses (their mistakes are in what they mean, not in their syntax).
func codecSets(t *testing.T) map[string]*Source {
	t.Helper()
	emb := Embedded()
	all := &Source{Name: "embedded+tests", Modules: maps.Clone(emb.Modules)}
	maps.Copy(all.Modules, emb.Tests)
	sets := map[string]*Source{all.Name: all}
	dirs, err := filepath.Glob("../testdata/broken-policies/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no broken policies: %v", err)
	}
	for _, dir := range dirs {
		src := &Source{Name: dir, Modules: map[string]string{}}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rego") {
				b, _ := os.ReadFile(p)
				src.Modules[p] = string(b)
			}
			return err
		})
		if len(src.Modules) > 0 {
			sets[dir] = src
		}
	}
	return sets
}

// TestCodecReadsBackAsParsed: every module of codecSets, encoded and
// decoded, equals its parse field by field, unexported fields and
// locations included, but for the three the parser alone reads.
func TestCodecReadsBackAsParsed(t *testing.T) {
	opts := compileMode{skipChecks: true}.parserOptions(Capabilities())
	n := 0
	for name, src := range codecSets(t) {
		mods, err := parseModules(src, opts)
		if err != nil {
			continue // a broken policy whose mistake is its syntax
		}
		b, err := encodeModules(sortedKeys(src.Modules), mods, src.Modules)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := decodeModules(b, src.Modules)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var diffs []string
		astDiff(reflect.ValueOf(mods), reflect.ValueOf(back), name, map[[2]uintptr]bool{}, &diffs)
		for _, d := range diffs {
			t.Error(d)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d sets compared", n)
	}
}

// TestParseCacheCompilesTheSame compiles the embedded set with its tests
// from its parse cache and from its text, and requires the same compiled
// modules and every test rule to pass in both.
func TestParseCacheCompilesTheSame(t *testing.T) {
	src := codecSets(t)["embedded+tests"]
	ctx := context.Background()
	cached := compileMode{skipChecks: true, parseCache: filepath.Join(t.TempDir(), "set.ast")}
	parsed, err := compile(ctx, src, benchConfig, io.Discard, cached) // writes the cache
	if err != nil {
		t.Fatal(err)
	}
	if _, fromCache, err := cached.modules(src, Capabilities()); err != nil || !fromCache {
		t.Fatalf("the parse cache was not read back (%v)", err)
	}
	fast, err := compile(ctx, src, benchConfig, io.Discard, cached)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(parsed.modules)) {
		if a, b := parsed.compiler.Modules[name].String(), fast.compiler.Modules[name].String(); a != b {
			t.Errorf("%s compiles differently from the parse cache:\n%s\n---\n%s", name, a, b)
		}
	}
	n := 0
	for _, name := range slices.Sorted(maps.Keys(Embedded().Tests)) {
		m := parsed.compiler.Modules[name]
		for _, r := range m.Rules {
			if rule := r.Head.Ref().String(); strings.HasPrefix(rule, "test_") {
				ref := m.Package.Path.String() + "." + rule
				if a, b := evalRef(t, parsed, ref), evalRef(t, fast, ref); a != b || a != "true" {
					t.Errorf("%s: %s parsed, %s from the parse cache", ref, a, b)
				}
				n++
			}
		}
	}
	t.Logf("%d test rules pass in both", n)
	if n < 50 {
		t.Fatalf("compared only %d test rules", n)
	}
}
