package policy

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/version"

	"github.com/deskbridge/deskbridge/internal/atomicfile"
)

// The parse cache: a marked set's modules, parsed once, kept in the
// folder of the marks (Options.CheckedDir) in the binary form of
// astcodec.go, which reads back in about a fifth of the parse's CPU (a
// fifth of a start per message is the parse). OPA itself offers no form
// to keep: its JSON AST does not read back every node, and nothing of a
// compiled set can be saved, so the compile still runs on every start.
//
// A file is named, and begins, with the hash of everything its content
// depends on: the modules' names and texts, the parser's options (the
// builtins Capabilities removes among them), OPA's, Go's and the codec's
// versions and this binary's build (its module, VCS revision, size and
// modification time). The content's SHA-256 follows. A file that is
// not a private regular file, is of another key, fails its hash or does
// not decode to exactly the set's modules is ignored and the modules are
// parsed: a cache never stands in for text it was not made from. It is
// written on the first marked start, after the modules it holds were
// read back and found equal to the parsed ones, and removes the caches
// in the folder no start wrote for a day (older builds', changed
// policies'). A signed bundle is never cached: its signature, checked at
// every start, is what vouches for it.

const astCacheMagic = "deskbridge-parsed-policy\n"

// maxASTCache bounds the file read back (the default set's is 100 KB).
const maxASTCache = 64 << 20

// astCacheFile is the cache of src's modules in dir ("": none).
func astCacheFile(dir string, src *Source) string {
	if dir == "" || src.Bundle != "" {
		return ""
	}
	return filepath.Join(dir, fmt.Sprintf("%x.ast", astCacheKey(src)))
}

// astCacheKey hashes what a parse cache of src depends on.
func astCacheKey(src *Source) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "codec %d\x00opa %s\x00go %s\x00build %s\x00", astCodecVersion, version.Version, runtime.Version(), buildIdentity())
	fmt.Fprintf(h, "rego v1, annotations unread\x00")
	for _, name := range slices.Sorted(mapKeys(forbidden)) {
		fmt.Fprintf(h, "%s\x00", name)
	}
	for _, name := range sortedKeys(src.Modules) {
		fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(src.Modules[name]), src.Modules[name])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// buildIdentity names this binary's build: its main module and VCS
// settings, and the executable's size and modification time (a rebuild
// from a changed tree changes them).
var buildIdentity = sync.OnceValue(func() string {
	var b bytes.Buffer
	if info, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&b, "%s %s %s", info.Path, info.Main.Path, info.Main.Version)
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" || s.Key == "vcs.time" {
				fmt.Fprintf(&b, " %s=%s", s.Key, s.Value)
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&b, " %d %d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
})

// loadParsed returns src's modules from its cache file, or an error
// when there is none to use.
func loadParsed(file string, src *Source) (map[string]*ast.Module, error) {
	b, err := readPrivateFile(file, maxASTCache)
	if err != nil {
		return nil, err
	}
	key := astCacheKey(src)
	head := len(astCacheMagic) + 2*sha256.Size
	if len(b) < head || string(b[:len(astCacheMagic)]) != astCacheMagic ||
		!bytes.Equal(b[len(astCacheMagic):len(astCacheMagic)+sha256.Size], key[:]) {
		return nil, errors.New("policy: parse cache of another set or build")
	}
	payload := b[head:]
	if sum := sha256.Sum256(payload); !bytes.Equal(b[head-sha256.Size:head], sum[:]) {
		return nil, errors.New("policy: parse cache fails its hash")
	}
	return decodeModules(payload, src.Modules)
}

// readPrivateFile reads file if it is a regular file that only its
// owner may read or write, of at most max bytes. On Windows the mode
// says nothing of who may read (the folder's ACL, the user's own, does),
// as for the decision log's key files.
func readPrivateFile(file string, max int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || (runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0) || fi.Size() > max {
		return nil, fmt.Errorf("policy: %s is not a private file of at most %d bytes", file, max)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// saveParsed writes mods, parsed from src, to file once they were
// encoded, decoded and found equal to themselves. A cache that cannot be
// written costs the next start a parse, nothing else.
func saveParsed(file string, src *Source, mods map[string]*ast.Module) error {
	payload, err := encodeModules(sortedKeys(src.Modules), mods, src.Modules)
	if err != nil {
		return err
	}
	if err := sameModules(payload, src, mods); err != nil {
		return err
	}
	key, sum := astCacheKey(src), sha256.Sum256(payload)
	b := make([]byte, 0, len(astCacheMagic)+2*sha256.Size+len(payload))
	b = append(append(append(append(b, astCacheMagic...), key[:]...), sum[:]...), payload...)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(file, b); err != nil {
		return err
	}
	pruneParsed(filepath.Dir(file), file, time.Now().Add(-staleParsed))
	return nil
}

// staleParsed is how long a parse cache no start wrote is kept once
// another is written: an older build's or policy's (a cache in use is
// written again only when it fails to read, so two builds in use side
// by side each write theirs again once a day at most).
const staleParsed = 24 * time.Hour

// pruneParsed removes the parse caches in dir but keep last written
// before cutoff.
func pruneParsed(dir, keep string, cutoff time.Time) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if filepath.Ext(e.Name()) != ".ast" || path == keep || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(path)
		}
	}
}

// sameModules checks that payload decodes to mods: equal by OPA's
// comparison, and written again to the same bytes (locations included).
func sameModules(payload []byte, src *Source, mods map[string]*ast.Module) error {
	back, err := decodeModules(payload, src.Modules)
	if err != nil {
		return err
	}
	for name, m := range mods {
		if !m.Equal(back[name]) {
			return fmt.Errorf("policy: %s does not read back as parsed", name)
		}
	}
	again, err := encodeModules(sortedKeys(src.Modules), back, src.Modules)
	if err != nil || !bytes.Equal(again, payload) {
		return errors.New("policy: parse cache does not read back as written")
	}
	return nil
}
